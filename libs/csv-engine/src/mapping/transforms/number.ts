// The number, amount and debit/credit transforms: read on bytes with the column's decimal separator,
// written as plain signed numbers (amounts rounded to their decimals), each value added to the column's
// control total. Values that are not numbers pass through unchanged, with a warning. A sign from a direction
// column, `invert`, and an empty side of a debit/credit pair are sign.ts's.
import {
  parseNumberBytes,
  parseSimpleNumber,
  recomputeValue,
  writeNumber,
  type NumberScratch,
} from '../../numbers';
import type { RecordView } from '../../parser';
import type { ControlTotal } from '../../types';
import { contentInto, contentOf, isBlank, passThrough, type CellOut, type Span } from '../cells';
import type { Op } from '../plan';
import type { DecimalSum } from '../totals';
import { applySign, emptyBesidePartner } from './sign';

/** Returns true when it wrote a number (false: an empty cell, or the value as it came). */
export function mapNumber(out: CellOut, r: RecordView, op: Op, rowNo: number): boolean {
  const v = contentInto(out.cv, r, op.src);
  if (v.s === v.e) {
    if (op.partner >= 0) emptyBesidePartner(out, r, op, rowNo);
    return false;
  }
  const n = out.num;
  const reason = parseSimpleNumber(v.buf, v.s, v.e, op.dec, n)
    ? null
    : parseNumberBytes(v.buf, v.s, v.e, op.dec, op.mode, n);
  const total = op.total as ControlTotal;
  if (reason !== null) {
    if (isBlank(v.buf, v.s, v.e)) {
      if (op.partner >= 0) emptyBesidePartner(out, r, op, rowNo);
      return false;
    }
    total.unreadable++;
    out.warn(
      rowNo,
      op.column,
      v.buf.toString('utf8', v.s, v.e),
      `Not ${op.mode === 'amount' ? 'an amount' : 'a number'}: ${reason}`,
    );
    passThrough(out, v);
    return false;
  }
  // The direction column's sign and `invert` (sign.ts); the totals count the signed value.
  if (op.signed) applySign(r, op, n);
  total.values++;
  (op.srcSum as DecimalSum).add(n);
  writeNumber(out.sink, n, op.decimals, op.parentheses);
  (op.outSum as DecimalSum).add(n);
  return true;
}

/** One amount from a debit and a credit column (one of them usually empty). */
export function mapDebitCredit(out: CellOut, r: RecordView, op: Op, rowNo: number): void {
  const total = op.total as ControlTotal;
  const d = op.src < r.count ? contentOf(r, op.src) : null;
  const c = op.src2 < r.count ? contentOf(r, op.src2) : null;
  const hasD = d !== null && !isBlank(d.buf, d.s, d.e);
  const hasC = c !== null && !isBlank(c.buf, c.s, c.e);
  if (!hasD && !hasC) {
    // Never a silent blank (a required column already says "Required value is empty").
    if (!op.required) {
      out.warn(
        rowNo,
        op.column,
        '',
        `Both "${out.stats.source.headers[op.src]}" and "${out.stats.source.headers[op.src2]}" are empty: no amount was written.`,
      );
    }
    return;
  }
  const nd = out.num;
  const nc = out.num2;
  const rd = hasD ? parseNumberBytes(d.buf, d.s, d.e, op.dec, 'amount', nd) : null;
  const rc = hasC ? parseNumberBytes(c.buf, c.s, c.e, op.dec2, 'amount', nc) : null;
  if (rd !== null || rc !== null) {
    total.unreadable++;
    const bad = rd !== null ? (d as Span) : (c as Span);
    out.warn(rowNo, op.column, bad.buf.toString('utf8', bad.s, bad.e), `Not an amount: ${rd ?? rc}`);
    passThrough(out, bad);
    return;
  }
  total.values++;
  // creditPositive: credit − debit. Each side counts by its size.
  const srcSum = op.srcSum as DecimalSum;
  if (hasD) {
    nd.neg = op.sign > 0;
    srcSum.add(nd);
  }
  if (hasC) {
    nc.neg = op.sign < 0;
    srcSum.add(nc);
  }
  let result: NumberScratch;
  if (hasD && hasC) {
    result = subtractInto(nc, nd, out.num, op.sign);
  } else result = hasD ? nd : nc;
  writeNumber(out.sink, result, op.decimals, false);
  (op.outSum as DecimalSum).add(result);
}

/** credit − debit (or the reverse), both given as magnitudes; exact, via BigInt (rare path). */
function subtractInto(
  credit: NumberScratch,
  debit: NumberScratch,
  out: NumberScratch,
  sign: number,
): NumberScratch {
  const toBig = (n: NumberScratch, scale: number): bigint => {
    let v = 0n;
    for (let k = 1; k <= n.intLen + n.fracLen; k++) v = v * 10n + BigInt(n.digits[k]);
    return v * 10n ** BigInt(scale - n.fracLen);
  };
  const scale = Math.max(credit.fracLen, debit.fracLen);
  let v = toBig(credit, scale) - toBig(debit, scale);
  if (sign < 0) v = -v;
  const neg = v < 0n;
  const str = (neg ? -v : v).toString().padStart(scale + 1, '0');
  const intStr = str.slice(0, str.length - scale).replace(/^0+/, '');
  const fracStr = str.slice(str.length - scale);
  out.neg = neg;
  out.intLen = intStr.length;
  out.fracLen = fracStr.length;
  for (let k = 0; k < intStr.length; k++) out.digits[1 + k] = intStr.charCodeAt(k) - 0x30;
  for (let k = 0; k < fracStr.length; k++) out.digits[1 + intStr.length + k] = fracStr.charCodeAt(k) - 0x30;
  recomputeValue(out);
  return out;
}
