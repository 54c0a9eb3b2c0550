// The text transforms (trim, upper, lower) and the constant: a constant's cell is written once, at compile
// time, and copied into every row.
import type { RecordView } from '../../parser';
import { ByteSink, writeStringCell } from '../../writer';
import { contentOf, type CellOut } from '../cells';
import { OP_TRIM, OP_UPPER, type Op } from '../plan';

// Module-level copies of imported constants (see mapping/run.ts).
const TRIM = OP_TRIM;
const UPPER = OP_UPPER;

/** The output cell of a constant, ready to copy. */
export function constantCell(value: string, delim: number, protect: boolean): Buffer {
  const s = new ByteSink(Buffer.byteLength(value) * 2 + 8);
  writeStringCell(s, value, delim, protect);
  return Buffer.from(s.buf.subarray(0, s.pos));
}

export function mapText(out: CellOut, r: RecordView, op: Op): void {
  const v = contentOf(r, op.src);
  if (v.s === v.e) return;
  const s = v.buf.toString('utf8', v.s, v.e);
  let value: string;
  if (op.kind === TRIM) value = s.trim();
  else if (op.kind === UPPER) value = s.toUpperCase();
  else value = s.toLowerCase();
  if (value !== '') writeStringCell(out.sink, value, out.delim, out.protect);
}
