// Signs that live outside the amount: `sign: { column, negative }` reads a direction column (Af/Bij, D/C,
// S/H, DR/CR…) — a row whose direction is one of `negative` is money out and gets a negative amount whatever
// sign it was written with, any other non-empty direction a positive one, an empty one keeps the sign as
// written — and `invert` flips the result (card exports listing charges as positive numbers). Compared on
// bytes (ASCII case folded); only a direction with non-ASCII letters is decoded.
// Also "never a silent blank": an amount read alone from one side of a debit/credit pair, empty on a row
// where the other side has a value, is reported.
import { MappingError } from '../../errors';
import type { NumberScratch } from '../../numbers';
import { F_PLAIN, F_QUOTED, type RecordView } from '../../parser';
import type { SourceInfo } from '../../reader';
import type { AmountTransform, MappingPair, NumberTransform } from '../../types';
import { contentOf, isBlank, type CellOut } from '../cells';
import { debitCreditPartner } from '../column-kinds';
import type { Op } from '../plan';

const PLAIN = F_PLAIN;
const QUOTED = F_QUOTED;

/** Request-time checks of `sign` and `invert` (the JSON may hold anything). */
export function checkSign(t: NumberTransform | AmountTransform, column: string): void {
  if (t.invert !== undefined && typeof t.invert !== 'boolean') {
    throw new MappingError(`"invert" for "${column}" must be true or false.`);
  }
  const s = t.sign as unknown;
  if (s === undefined) return;
  const shape = `The sign for "${column}" must name a data column and the values that mean money out, like { "column": "Af Bij", "negative": ["Af"] }.`;
  if (typeof s !== 'object' || s === null || Array.isArray(s)) throw new MappingError(shape);
  const { column: col, negative } = s as { column?: unknown; negative?: unknown };
  if (typeof col !== 'string' || col === '') throw new MappingError(shape);
  if (!Array.isArray(negative) || negative.length === 0 || negative.some((v) => typeof v !== 'string')) {
    throw new MappingError(
      `The sign for "${column}" needs the values of "${col}" that mean money out, like ["Af"] or ["D", "DR"].`,
    );
  }
  if (negative.every((v) => (v as string).trim() === '')) {
    throw new MappingError(
      `The money-out values for "${column}" are all blank: write the values of "${col}" that mean money out.`,
    );
  }
}

/** Sets op up for `sign` / `invert`, and the debit/credit partner of its data column. */
export function compileSign(
  op: Op,
  t: NumberTransform | AmountTransform,
  info: SourceInfo,
  mappings: readonly MappingPair[],
  sources: (m: MappingPair) => readonly string[],
): void {
  op.invert = t.invert === true;
  if (t.sign !== undefined) {
    const k = info.headers.indexOf(t.sign.column);
    if (k < 0) {
      throw new MappingError(
        `The sign column "${t.sign.column}" for "${op.column}" is not a column of the data file. Its columns are: ${info.headers.join(', ')}.`,
      );
    }
    op.signSrc = k;
    op.signNegText = t.sign.negative.map((v) => v.trim().toLowerCase()).filter((v) => v !== '');
    op.signNeg = op.signNegText.map((v) => Buffer.from(v, 'utf8'));
  }
  op.signed = op.invert || op.signSrc >= 0;
  // The other side of a pair this column is named as, unless a sign column or another pair reads it.
  const partner = op.signSrc >= 0 ? -1 : debitCreditPartner(info.headers, op.src);
  if (partner >= 0) {
    const name = info.headers[partner];
    if (!mappings.some((m) => sources(m).includes(name))) op.partner = partner;
  }
}

/** Applies the row's direction and `invert` to the parsed value n. */
export function applySign(r: RecordView, op: Op, n: NumberScratch): void {
  if (op.signSrc >= 0 && op.signSrc < r.count) {
    const d = direction(r, op.signSrc, op);
    if (d !== 0) n.neg = d < 0;
  }
  if (op.invert) n.neg = !n.neg;
}

/** -1: money out (one of op's values); 1: another value; 0: empty. */
function direction(r: RecordView, k: number, op: Op): number {
  const f = r.flagsOf(k);
  let buf = r.buf;
  let s = r.ends[r.base + k - 1] + 1;
  let e = r.ends[r.base + k];
  if (f === QUOTED) {
    s++;
    e--;
  } else if (f !== PLAIN) {
    const v = contentOf(r, k);
    buf = v.buf;
    s = v.s;
    e = v.e;
  }
  while (s < e && (buf[s] === 0x20 || buf[s] === 0x09)) s++;
  while (e > s && (buf[e - 1] === 0x20 || buf[e - 1] === 0x09)) e--;
  if (s === e) return 0;
  const list = op.signNeg;
  let wide = false;
  for (let j = 0; j < list.length; j++) {
    const want = list[j];
    if (want.length !== e - s) continue;
    let i = 0;
    for (; i < want.length; i++) {
      let b = buf[s + i];
      if (b >= 0x41 && b <= 0x5a) b |= 0x20;
      else if (b >= 0x80) wide = true;
      if (b !== want[i]) break;
    }
    if (i === want.length) return -1;
  }
  for (let i = s; !wide && i < e; i++) if (buf[i] >= 0x80) wide = true;
  // Letters beyond ASCII ("DÉBIT"): compared as text.
  if (wide && op.signNegText.includes(buf.toString('utf8', s, e).toLowerCase())) return -1;
  return 1;
}

/** An empty amount on a row where the other side of its debit/credit pair has a value: a row warning. */
export function emptyBesidePartner(out: CellOut, r: RecordView, op: Op, rowNo: number): void {
  const k = op.partner;
  if (k >= r.count) return;
  const v = contentOf(r, k);
  if (isBlank(v.buf, v.s, v.e)) return;
  const name = out.stats.source.headers[k];
  out.warn(
    rowNo,
    op.column,
    '',
    `Empty here, but "${name}" has ${v.buf.toString('utf8', v.s, v.e).trim()} on this row: nothing was written. Map "${op.column}" with Debit + credit to keep both sides.`,
  );
}
