// The boolean transform: yes/no words in several languages (and 1/0, x, ✓) become the mapping's two
// output texts. Other values pass through unchanged, with a warning.
import type { RecordView } from '../../parser';
import { writeStringCell } from '../../writer';
import { contentOf, type CellOut } from '../cells';
import type { Op } from '../plan';

const TRUE_WORDS = new Set([
  'yes',
  'y',
  'true',
  't',
  '1',
  'on',
  'ja',
  'j',
  'oui',
  'si',
  'sí',
  'x',
  '✓',
  '✔',
  'wahr',
  'vrai',
  'checked',
  'enabled',
  'active',
]);
const FALSE_WORDS = new Set([
  'no',
  'n',
  'false',
  'f',
  '0',
  'off',
  'nein',
  'non',
  'falsch',
  'faux',
  'unchecked',
  'disabled',
  'inactive',
  '-',
]);

export function mapBoolean(out: CellOut, r: RecordView, op: Op): void {
  const v = contentOf(r, op.src);
  if (v.s === v.e) return;
  const s = v.buf.toString('utf8', v.s, v.e);
  const key = s.trim().toLowerCase();
  let value: string;
  if (key === '') value = '';
  else if (TRUE_WORDS.has(key)) value = op.trueBytes;
  else if (FALSE_WORDS.has(key)) value = op.falseBytes;
  else {
    out.warn(out.stats.rowsIn, op.column, s, 'Not a yes/no value');
    value = s;
  }
  if (value !== '') writeStringCell(out.sink, value, out.delim, out.protect);
}
