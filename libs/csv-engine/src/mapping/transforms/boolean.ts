// The boolean transform: yes/no words in several languages (and 1/0, x, ✓; the list is ../../booleans)
// become the mapping's two output texts. Other values pass through unchanged, with a warning.
import type { RecordView } from '../../parser';
import { writeStringCell } from '../../writer';
import { contentOf, type CellOut } from '../cells';
import type { Op } from '../plan';
import { booleanWord } from '../../booleans';

export function mapBoolean(out: CellOut, r: RecordView, op: Op): void {
  const v = contentOf(r, op.src);
  if (v.s === v.e) return;
  const s = v.buf.toString('utf8', v.s, v.e);
  const word = booleanWord(s);
  let value: string;
  if (s.trim() === '') value = '';
  else if (word === true) value = op.trueBytes;
  else if (word === false) value = op.falseBytes;
  else {
    out.warn(out.stats.rowsIn, op.column, s, 'Not a yes/no value');
    value = s;
  }
  if (value !== '') writeStringCell(out.sink, value, out.delim, out.protect);
}
