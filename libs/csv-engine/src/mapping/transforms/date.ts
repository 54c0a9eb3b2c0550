// The date transform: reads a value in the column's order (fixed by the input pattern or inferred) and
// writes it in the output pattern. Values that are not dates pass through unchanged, with a warning.
import { groupsToDate, parseDateWithMonthName, readDate10, readGroups, writeDate } from '../../dates';
import type { RecordView } from '../../parser';
import { ByteSink, writeCell } from '../../writer';
import { contentInto, isBlank, passThrough, type CellOut } from '../cells';
import type { Op } from '../plan';

/** Does an output pattern hold text that needs quoting or the formula guard (so dates go via writeCell)? */
export function dateNeedsCell(output: string, delim: number): boolean {
  return /["\r\n]/.test(output) || output.includes(String.fromCharCode(delim)) || /^[=@+\-\t]/.test(output);
}

/** Scratch for a date written through writeCell (reused: no allocation per cell). */
const dateScratch = new ByteSink(64);

export function mapDate(out: CellOut, r: RecordView, op: Op, rowNo: number): void {
  const v = contentInto(out.cv, r, op.src);
  if (v.s === v.e) return;
  const g = out.groups;
  const ymd = out.ymd;
  let reason: string | null;
  if (v.e - v.s === 10 && readDate10(v.buf, v.s, op.order, ymd)) reason = null;
  else if (readGroups(v.buf, v.s, v.e, g)) reason = groupsToDate(g, op.order, op.widths, ymd);
  else reason = parseDateWithMonthName(v.buf.toString('utf8', v.s, v.e).trim(), ymd);
  if (reason !== null) {
    if (isBlank(v.buf, v.s, v.e)) return;
    out.warn(
      rowNo,
      op.column,
      v.buf.toString('utf8', v.s, v.e),
      reason === 'not a date' ? 'Not a date' : `Not a date: ${reason}`,
    );
    passThrough(out, v);
    return;
  }
  if (op.dateNeedsCell) {
    const tmp = dateScratch;
    tmp.pos = 0;
    writeDate(tmp, op.parts, ymd);
    writeCell(out.sink, tmp.buf, 0, tmp.pos, out.delim, out.protect);
  } else writeDate(out.sink, op.parts, ymd);
}
