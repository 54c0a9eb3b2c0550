// What a transform works with: a field's content bytes (quotes stripped, escapes decoded only when the
// field has them) and the output side it writes its cell to (the mapping run implements CellOut).
import type { DateGroups, Ymd } from '../dates';
import type { NumberScratch } from '../numbers';
import { F_PLAIN, F_QUOTED, unescapeField, type RecordView } from '../parser';
import type { ApplyStats, WarningRule } from '../types';
import { writeCell, type ByteSink } from '../writer';

/** A field's content: buf[s, e). */
export interface Span {
  buf: Buffer;
  s: number;
  e: number;
}

/** The output side of the row loop, and the scratch a transform may reuse (one cell at a time). */
export interface CellOut {
  readonly sink: ByteSink;
  readonly delim: number;
  readonly protect: boolean;
  readonly stats: ApplyStats;
  /** Scratch for contentInto. */
  readonly cv: Span;
  readonly num: NumberScratch;
  readonly num2: NumberScratch;
  readonly groups: DateGroups;
  readonly ymd: Ymd;
  warn(row: number, column: string, value: string, reason: string, rule?: WarningRule): void;
}

// Module-level copies of imported flags (see mapping/run.ts).
const PLAIN = F_PLAIN;
const QUOTED = F_QUOTED;

/** Content of field k (a new Span). */
export function contentOf(r: RecordView, k: number): Span {
  const f = r.flagsOf(k);
  const s = r.ends[r.base + k - 1] + 1;
  const e = r.ends[r.base + k];
  if (f === PLAIN) return { buf: r.buf, s, e };
  if ((f & 3) === QUOTED) return { buf: r.buf, s: s + 1, e: e - 1 };
  const b = unescapeField(r.buf, s, e);
  return { buf: b, s: 0, e: b.length };
}

/** contentOf without allocating: fills and returns `cv` (read it before the next call). */
export function contentInto(cv: Span, r: RecordView, k: number): Span {
  const f = r.flagsOf(k);
  const s = r.ends[r.base + k - 1] + 1;
  const e = r.ends[r.base + k];
  if (f === PLAIN || (f & 3) === QUOTED) {
    const q = f === PLAIN ? 0 : 1;
    cv.buf = r.buf;
    cv.s = s + q;
    cv.e = e - q;
    return cv;
  }
  const b = unescapeField(r.buf, s, e);
  cv.buf = b;
  cv.s = 0;
  cv.e = b.length;
  return cv;
}

/** Writes a value the transform could not read as it came. */
export function passThrough(out: CellOut, v: Span): void {
  writeCell(out.sink, v.buf, v.s, v.e, out.delim, out.protect);
}

export function isBlank(buf: Buffer, s: number, e: number): boolean {
  for (let i = s; i < e; i++) if (buf[i] !== 0x20 && buf[i] !== 0x09) return false;
  return true;
}
