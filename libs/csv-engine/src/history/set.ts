// Run history while streaming (issue 30): the fingerprints earlier runs of a saved mapping wrote, held as a
// compact set, and the fingerprints this run adds. A fingerprint is the first 64 bits of HMAC-SHA-256 (see
// hmac.ts) as two unsigned 32-bit words `hi`, `lo`. Its first 6 bits pick one of 64 buckets (the store
// keeps them apart the same way, so a bucket is loaded in one piece); each bucket is an open-addressing
// table of 32-bit words: the slot from the next 26 bits of `hi`, the word stored is `lo`. 4 bytes per
// fingerprint at a 0.75 load, plus 2 for the run it came from: 12 million earlier rows take ~96 MB.
// A row counts as seen when a word on its probe path equals its `lo`: with ~8 words compared per miss at
// this load, a new row is mistaken for an old one about once in 500 million rows.
import { RowHmac } from './hmac';

export const BUCKET_BITS = 6;
export const BUCKETS = 1 << BUCKET_BITS;
const HOME_BITS = 32 - BUCKET_BITS;
const HOME_SPAN = 2 ** HOME_BITS;
const HOME_MASK = HOME_SPAN - 1;
const LOAD = 0.75;
/** Runs beyond this many in memory are all named as this index (the oldest kept). */
export const MAX_RUNS = 0xffff;

export function bucketOf(hi: number): number {
  return hi >>> HOME_BITS;
}

/** Earlier runs' fingerprints: `find(hi, lo)` answers the index of the run that wrote it, or -1. */
export class FingerprintSet {
  private readonly words: (Uint32Array | null)[] = new Array<Uint32Array | null>(BUCKETS).fill(null);
  private readonly runs: (Uint16Array | null)[] = new Array<Uint16Array | null>(BUCKETS).fill(null);
  size = 0;

  /** Makes room in `bucket` for `n` fingerprints (call once per bucket, before its add calls). */
  reserve(bucket: number, n: number): void {
    if (n <= 0) return;
    const slots = Math.ceil(n / LOAD) + 1;
    this.words[bucket] = new Uint32Array(slots);
    this.runs[bucket] = new Uint16Array(slots);
  }

  /** Adds the packed big-endian 8-byte fingerprints in `bytes` (all of `bucket`) written by run `run`. */
  addPacked(bucket: number, bytes: Uint8Array, run: number): void {
    const words = this.words[bucket];
    const runs = this.runs[bucket] as Uint16Array;
    if (!words) throw new Error(`fingerprint bucket ${bucket} has no room reserved`);
    const r = Math.min(run, MAX_RUNS);
    const slots = words.length;
    for (let i = 0; i + 8 <= bytes.length; i += 8) {
      const hi = ((bytes[i] << 24) | (bytes[i + 1] << 16) | (bytes[i + 2] << 8) | bytes[i + 3]) >>> 0;
      const lo = ((bytes[i + 4] << 24) | (bytes[i + 5] << 16) | (bytes[i + 6] << 8) | bytes[i + 7]) >>> 0;
      const v = lo === 0 ? 1 : lo;
      let k = Math.floor(((hi & HOME_MASK) / HOME_SPAN) * slots);
      for (;;) {
        const w = words[k];
        if (w === 0) {
          words[k] = v;
          runs[k] = r;
          this.size++;
          break;
        }
        if (w === v) break; // already there (from an older run: it keeps the first)
        if (++k === slots) k = 0;
      }
    }
  }

  find(hi: number, lo: number): number {
    const words = this.words[hi >>> HOME_BITS];
    if (words === null) return -1;
    const slots = words.length;
    const v = lo === 0 ? 1 : lo;
    let k = Math.floor(((hi & HOME_MASK) / HOME_SPAN) * slots);
    for (;;) {
      const w = words[k];
      if (w === v) return (this.runs[hi >>> HOME_BITS] as Uint16Array)[k];
      if (w === 0) return -1;
      if (++k === slots) k = 0;
    }
  }
}

/** The fingerprints a run writes, packed 8 bytes each, by bucket (what the store inserts). */
export class FingerprintCollector {
  private readonly parts: Uint8Array[] = [];
  private readonly fill = new Int32Array(BUCKETS);
  count = 0;

  constructor() {
    for (let b = 0; b < BUCKETS; b++) this.parts.push(new Uint8Array(256));
  }

  add(hi: number, lo: number): void {
    const b = hi >>> HOME_BITS;
    let part = this.parts[b];
    const at = this.fill[b];
    if (at + 8 > part.length) {
      const next = new Uint8Array(part.length * 2);
      next.set(part);
      this.parts[b] = part = next;
    }
    part[at] = hi >>> 24;
    part[at + 1] = hi >>> 16;
    part[at + 2] = hi >>> 8;
    part[at + 3] = hi;
    part[at + 4] = lo >>> 24;
    part[at + 5] = lo >>> 16;
    part[at + 6] = lo >>> 8;
    part[at + 7] = lo;
    this.fill[b] = at + 8;
    this.count++;
  }

  /** Non-empty buckets with their packed fingerprints (views; valid until the next add). */
  *buckets(): Generator<{ bucket: number; count: number; bytes: Uint8Array }> {
    for (let b = 0; b < BUCKETS; b++) {
      const n = this.fill[b];
      if (n > 0) yield { bucket: b, count: n / 8, bytes: this.parts[b].subarray(0, n) };
    }
  }
}

/**
 * What a run of a saved mapping does with its rows (ApplyOptions.history): each written row's fingerprint
 * (the row's output bytes, or its key columns length-prefixed) is looked up among earlier runs', counted
 * per run when found, and collected when new.
 */
export class RowHistory {
  readonly hmac: RowHmac;
  /** Rows found among earlier runs' fingerprints, by the index of the run that wrote them. */
  readonly perRun: Map<number, number> = new Map();
  readonly fresh = new FingerprintCollector();
  alreadyExported = 0;

  constructor(
    secret: Uint8Array,
    readonly mode: 'skip' | 'flag' | 'keep',
    readonly earlier: FingerprintSet | null,
    /** Template columns the fingerprint is taken from; null: the whole output row. */
    readonly keyColumns: readonly string[] | null = null,
    /** The warning text of a flagged row, by run index (e.g. "Exported on 3 Oct 2026 by ana"). */
    readonly reasonOf: (run: number) => string = () => 'Exported by an earlier run of this mapping',
  ) {
    this.hmac = new RowHmac(secret);
  }

  /**
   * The row buf[s, e) (without its line end), its cells starting at `cellStarts[0..cells)` when key
   * columns are used (`keyIndexes`: which cells). Answers the earlier run's index, or -1 for a new row.
   */
  check(
    buf: Uint8Array,
    s: number,
    e: number,
    cellStarts: Int32Array | null,
    keyIndexes: Int32Array | null,
    cells: number,
  ): number {
    const h = this.hmac;
    if (cellStarts === null || keyIndexes === null) h.fingerprint(buf, s, e);
    else {
      h.start();
      for (let i = 0; i < keyIndexes.length; i++) {
        const j = keyIndexes[i];
        const cs = cellStarts[j];
        const ce = j + 1 < cells ? cellStarts[j + 1] - 1 : e;
        h.field(buf, cs, ce);
      }
      h.finish();
    }
    const hi = h.hi;
    const lo = h.lo;
    const run = this.earlier === null ? -1 : this.earlier.find(hi, lo);
    if (run < 0) {
      this.fresh.add(hi, lo);
      return -1;
    }
    this.alreadyExported++;
    this.perRun.set(run, (this.perRun.get(run) ?? 0) + 1);
    return run;
  }
}
