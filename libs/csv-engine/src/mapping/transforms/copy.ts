// A column mapped without a transform: the field is copied as bytes. Plain fields, and quoted fields that
// still need their quotes, are valid output as they are; only the formula guard, another output
// delimiter or a malformed field make it rewrite the cell. The row loop inlines the common cases.
import { F_MALFORMED, F_PLAIN, F_QUOTED, QUOTE, unescapeField, type RecordView } from '../../parser';
import { isNumberOrPhone, writeCell } from '../../writer';
import type { CellOut } from '../cells';

/** First bytes that may call for the formula guard: = @ TAB CR LF + -. */
const GUARD = new Uint8Array(256);
for (const c of [0x3d, 0x40, 0x09, 0x0d, 0x0a, 0x2b, 0x2d]) GUARD[c] = 1;

export { GUARD };

// Module-level copies of imported constants (see mapping/run.ts).
const PLAIN = F_PLAIN;
const QUOTED = F_QUOTED;
const MALFORMED = F_MALFORMED;
const Q = QUOTE;

/** Copies field k; `sameDelim`: the output delimiter is the file's (raw quoted fields stay valid). */
export function copyField(out: CellOut, r: RecordView, k: number, sameDelim: boolean): void {
  const buf = r.buf;
  const s = r.ends[r.base + k - 1] + 1;
  const e = r.ends[r.base + k];
  const f = r.flagsOf(k);
  const sink = out.sink;
  const protect = out.protect;
  if (f === PLAIN || f === QUOTED) {
    const cs = f === PLAIN ? s : s + 1;
    const ce = f === PLAIN ? e : e - 1;
    if (cs === ce) return;
    const b0 = buf[cs];
    if ((protect && GUARD[b0] === 1) || !sameDelim) writeCell(sink, buf, cs, ce, out.delim, protect);
    else sink.copyFrom(buf, r.view, cs, ce);
    return;
  }
  if (f !== MALFORMED && sameDelim) {
    // Still needs quotes: the raw field is already valid RFC 4180 output.
    if (protect && GUARD[buf[s + 1]] === 1 && needsGuardQuoted(buf, s + 1, e - 1)) {
      sink.ensure(e - s + 1);
      sink.byte(Q);
      sink.byte(0x27);
      sink.bytes(buf, s + 1, e);
    } else sink.copyFrom(buf, r.view, s, e);
    return;
  }
  const v = unescapeField(buf, s, e);
  writeCell(sink, v, 0, v.length, out.delim, protect);
}

function needsGuardQuoted(buf: Buffer, s: number, e: number): boolean {
  const b = buf[s];
  if (b === 0x2b || b === 0x2d) return !isNumberOrPhone(buf, s, e);
  return true;
}
