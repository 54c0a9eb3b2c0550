// Control totals: for every number, amount and debit/credit column, the exact sum of the values read and
// of the values written, so a user can check the output against the source. Sums are kept per Op; a
// worker thread returns its block's share in millionths and the main thread adds it.
import type { NumberScratch } from '../numbers';
import type { BlockTotal } from '../parallel';
import type { ControlTotal } from '../types';

/** The fields of a plan Op (plan.ts) that carry its total: an Op is one. */
export interface Totalled {
  readonly column: string;
  /** The column's decimals, -1 for as many as the values have. */
  readonly decimals: number;
  total: ControlTotal | null;
  srcSum: DecimalSum | null;
  outSum: DecimalSum | null;
}

const MICRO = 1_000_000;
const CARRY = 1e12;

/**
 * Exact running sum of decimal values to 6 fraction digits, without BigInt on the common path:
 * whole units and millionths are kept apart and carried, BigInt only for huge values.
 */
export class DecimalSum {
  /**
   * [whole units, millionths]. A Float64Array, not two number fields: the sums outgrow V8's small
   * integers after a few thousand values, and a field changing representation mid-run would throw away
   * the optimised code of every function that touches these objects. Exact: |units| <= 1e15, |micros| < 1e12 + 1e6.
   */
  private readonly acc = new Float64Array(4);
  private big = 0n;
  private markedBig = 0n;
  /** Remembers the sum (see rollback). */
  mark(): void {
    this.acc[2] = this.acc[0];
    this.acc[3] = this.acc[1];
    this.markedBig = this.big;
  }
  /** Back to the sum at the last mark() (a row the run history left out). */
  rollback(): void {
    this.acc[0] = this.acc[2];
    this.acc[1] = this.acc[3];
    this.big = this.markedBig;
  }
  add(n: NumberScratch, sign = 1): void {
    const acc = this.acc;
    const neg = n.neg !== sign < 0;
    if (n.intLen > 15) {
      const d = n.digits;
      let v = 0n;
      for (let k = 1; k <= n.intLen; k++) v = v * 10n + BigInt(d[k]);
      this.big += neg ? -v : v;
    } else {
      if (neg) acc[0] -= n.intVal;
      else acc[0] += n.intVal;
      if (acc[0] > 1e15 || acc[0] < -1e15) {
        this.big += BigInt(acc[0]);
        acc[0] = 0;
      }
    }
    if (neg) acc[1] -= n.micro;
    else acc[1] += n.micro;
    if (acc[1] >= CARRY || acc[1] <= -CARRY) {
      const whole = Math.trunc(acc[1] / MICRO);
      acc[0] += whole;
      acc[1] -= whole * MICRO;
    }
  }

  /** The exact sum in millionths. */
  micros(): bigint {
    return (this.big + BigInt(this.acc[0])) * BigInt(MICRO) + BigInt(this.acc[1]);
  }

  /** Adds another sum given in millionths. */
  addMicros(micros: bigint): void {
    this.big += micros / BigInt(MICRO);
    this.acc[1] += Number(micros % BigInt(MICRO));
  }

  reset(): void {
    this.acc[0] = 0;
    this.acc[1] = 0;
    this.big = 0n;
  }

  /** The sum as plain decimal text with `decimals` fraction digits (trailing zeros kept). */
  toString(decimalsWanted = 2): string {
    const decimals = Math.max(0, Math.min(6, decimalsWanted));
    const total = this.micros();
    const neg = total < 0n;
    const abs = neg ? -total : total;
    const scale = 10n ** BigInt(6 - decimals);
    // round half away from zero to `decimals`
    const q = (abs + scale / 2n) / scale;
    const str = q.toString().padStart(decimals + 1, '0');
    const intPart = decimals > 0 ? str.slice(0, -decimals) : str;
    const frac = decimals > 0 ? '.' + str.slice(-decimals) : '';
    return (neg && q !== 0n ? '-' : '') + intPart + frac;
  }
}

/** Gives `op` its control total (starting at zero); the caller lists it in the stats. */
export function attachTotal(op: Totalled, kind: ControlTotal['kind'], sourceColumns: string[]): ControlTotal {
  op.srcSum = new DecimalSum();
  op.outSum = new DecimalSum();
  op.total = {
    column: op.column,
    kind,
    sourceColumns,
    sourceTotal: '0',
    outputTotal: '0',
    values: 0,
    unreadable: 0,
  };
  return op.total;
}

/** Worker side: each total's share since the last call, in op order; the shares are then zeroed. */
export function takeTotals(ops: readonly Totalled[]): BlockTotal[] {
  const totals: BlockTotal[] = [];
  for (const op of ops) {
    const t = op.total;
    if (!t) continue;
    const src = op.srcSum as DecimalSum;
    const out = op.outSum as DecimalSum;
    totals.push({
      values: t.values,
      unreadable: t.unreadable,
      srcMicros: src.micros(),
      outMicros: out.micros(),
    });
    t.values = 0;
    t.unreadable = 0;
    src.reset();
    out.reset();
  }
  return totals;
}

/** Main side: adds a block's shares (as takeTotals listed them). */
export function mergeTotals(ops: readonly Totalled[], shares: readonly BlockTotal[]): void {
  let k = 0;
  for (const op of ops) {
    const t = op.total;
    if (!t) continue;
    const bt = shares[k++];
    t.values += bt.values;
    t.unreadable += bt.unreadable;
    (op.srcSum as DecimalSum).addMicros(bt.srcMicros);
    (op.outSum as DecimalSum).addMicros(bt.outMicros);
  }
}

/** Writes the sums into the totals as text, at each column's precision. */
export function finishTotals(ops: readonly Totalled[]): void {
  for (const op of ops) {
    if (!op.total) continue;
    const decimals = op.decimals >= 0 ? op.decimals : 0;
    op.total.sourceTotal = trimZeros((op.srcSum as DecimalSum).toString(6), decimals);
    op.total.outputTotal = trimZeros((op.outSum as DecimalSum).toString(6), decimals);
  }
}

function trimZeros(s: string, decimals: number): string {
  // DecimalSum prints 6 places; show the column's own precision (at least its decimals, more if needed).
  const dot = s.indexOf('.');
  if (dot < 0) return s;
  let end = s.length;
  while (end > dot + 1 + decimals && s[end - 1] === '0') end--;
  if (end === dot + 1) end = dot;
  return s.slice(0, end);
}
