// Run history while streaming (issue 30): the fingerprints earlier runs of a saved mapping wrote, held as a
// compact set, and the fingerprints this run adds. A fingerprint is the first 64 bits of HMAC-SHA-256 (see
// hmac.ts) as two unsigned 32-bit words `hi`, `lo`. Its first 6 bits pick one of 64 buckets (the store
// keeps them apart the same way, so a bucket is loaded in one piece); each bucket is an open-addressing
// table of 32-bit words: the slot from the next 26 bits of `hi`, the word stored is `lo`. 4 bytes per
// fingerprint at a 0.75 load, plus 1 for the run it came from (2 beyond 255 runs): 12 million earlier
// rows take ~80 MB. The native addon fills the tables when it is built (same slots).
// A row counts as seen when a word on its probe path equals its `lo`: with ~8 words compared per miss at
// this load, a new row is mistaken for an old one about once in 500 million rows.
import { RowHmac } from './hmac';
import { type NativeFingerprints, nativeFingerprints } from './native';

export const BUCKET_BITS = 6;
export const BUCKETS = 1 << BUCKET_BITS;
const HOME_BITS = 32 - BUCKET_BITS;
const HOME_SPAN = 2 ** HOME_BITS;
const HOME_MASK = HOME_SPAN - 1;
const LOAD = 0.75;
/** Runs beyond this many in memory are all named as this index (the oldest kept). */
export const MAX_RUNS = 0xffff;
/** Output chunks a run's history may hold while the thread pool hashes them (~576 KB each). */
const MAX_IN_FLIGHT = 8;

export function bucketOf(hi: number): number {
  return hi >>> HOME_BITS;
}

/** The home slot of `hi` in a bucket table of `slots` slots (exact: the product stays below 2^53). */
function homeOf(hi: number, slots: number): number {
  return Math.floor(((hi & HOME_MASK) * slots) / HOME_SPAN);
}

/**
 * Earlier runs' fingerprints: `find(hi, lo)` answers the index of the run that wrote it, or -1. The run
 * index takes one byte per slot while at most 255 runs are kept (`runCount`), else two.
 */
export class FingerprintSet {
  private readonly words: (Uint32Array | null)[] = new Array<Uint32Array | null>(BUCKETS).fill(null);
  private readonly runs: (Uint8Array | Uint16Array | null)[] = new Array<Uint8Array | Uint16Array | null>(
    BUCKETS,
  ).fill(null);
  size = 0;

  constructor(
    readonly runCount = MAX_RUNS,
    private readonly native: NativeFingerprints | null = nativeFingerprints,
  ) {}

  /** Makes room in `bucket` for `n` fingerprints (call once per bucket, before its add calls). */
  reserve(bucket: number, n: number): void {
    if (n <= 0) return;
    const slots = Math.ceil(n / LOAD) + 1;
    this.words[bucket] = new Uint32Array(slots);
    this.runs[bucket] = this.runCount <= 0xff ? new Uint8Array(slots) : new Uint16Array(slots);
  }

  /** The index stored for run `run`: runs past what a slot can name share the last index. */
  private runIndex(run: number): number {
    return Math.min(run, this.runCount <= 0xff ? 0xff : MAX_RUNS);
  }

  /** Adds the packed big-endian 8-byte fingerprints in `bytes` (all of `bucket`) written by run `run`. */
  addPacked(bucket: number, bytes: Uint8Array, run: number): void {
    const words = this.words[bucket];
    const runs = this.runs[bucket] as Uint8Array | Uint16Array;
    if (!words) throw new Error(`fingerprint bucket ${bucket} has no room reserved`);
    const r = this.runIndex(run);
    if (this.native !== null) {
      this.size += this.native.insertPacked(words, runs, bytes, r, HOME_BITS);
      return;
    }
    const slots = words.length;
    for (let i = 0; i + 8 <= bytes.length; i += 8) {
      const hi = ((bytes[i] << 24) | (bytes[i + 1] << 16) | (bytes[i + 2] << 8) | bytes[i + 3]) >>> 0;
      const lo = ((bytes[i + 4] << 24) | (bytes[i + 5] << 16) | (bytes[i + 6] << 8) | bytes[i + 7]) >>> 0;
      const v = lo === 0 ? 1 : lo;
      let k = homeOf(hi, slots);
      for (let probes = 0; probes < slots; probes++) {
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

  /**
   * addPacked() of every part (one run's packed fingerprints of `bucket`, written by run `runs[i]`), on the
   * native addon's thread pool when it has one (else at once). Buckets are separate tables, so calls for
   * different buckets may overlap; calls for one bucket run one after another. The parts must not change
   * until the promise settles; lookups may start once added() has.
   */
  addBucketLater(bucket: number, parts: readonly Uint8Array[], runs: readonly number[]): Promise<void> {
    const insert = this.native?.insertManyAsync;
    if (insert === undefined) {
      for (let i = 0; i < parts.length; i++) this.addPacked(bucket, parts[i], runs[i]);
      return Promise.resolve();
    }
    const words = this.words[bucket];
    const table = this.runs[bucket] as Uint8Array | Uint16Array;
    if (!words) return Promise.reject(new Error(`fingerprint bucket ${bucket} has no room reserved`));
    const partRuns = Int32Array.from(runs, (r) => this.runIndex(r));
    const before = this.inserting[bucket] ?? Promise.resolve();
    const done = before
      .then(() => insert(words, table, parts, partRuns, HOME_BITS))
      .then((added) => {
        this.size += added;
      });
    const settled = done.catch((err: unknown) => {
      this.insertError ??= err;
    });
    this.inserting[bucket] = settled;
    this.pendingInserts.push(settled);
    return done;
  }

  /** Each bucket's last queued insert (addBucketLater), and all of them, for added(). */
  private readonly inserting: (Promise<void> | undefined)[] = new Array<Promise<void> | undefined>(BUCKETS);
  private pendingInserts: Promise<void>[] = [];
  private insertError: unknown = null;

  /** Settles when every addBucketLater() so far is done (rejects with the first failure, if any). */
  async added(): Promise<void> {
    const all = this.pendingInserts;
    this.pendingInserts = [];
    await Promise.all(all);
    if (this.insertError !== null) throw this.insertError;
  }

  /**
   * findMany() on the native addon's thread pool, or null without one; `fps` and `out` must not change until
   * the promise settles, nor may the set.
   */
  findManyLater(fps: Uint32Array, n: number, out: Int32Array): Promise<void> | null {
    const lookup = this.native?.lookupManyAsync;
    return lookup === undefined ? null : lookup(this.words, this.runs, fps, n, out, HOME_BITS);
  }

  /** find() of fps[2i], fps[2i + 1] into out[i] for i < n (natively: many lookups' memory reads overlap). */
  findMany(fps: Uint32Array, n: number, out: Int32Array): void {
    if (this.native !== null) {
      this.native.lookupMany(this.words, this.runs, fps, n, out, HOME_BITS);
      return;
    }
    for (let i = 0; i < n; i++) out[i] = this.find(fps[2 * i], fps[2 * i + 1]);
  }

  find(hi: number, lo: number): number {
    const words = this.words[hi >>> HOME_BITS];
    if (words === null) return -1;
    const slots = words.length;
    const v = lo === 0 ? 1 : lo;
    let k = homeOf(hi, slots);
    for (;;) {
      const w = words[k];
      if (w === v) return (this.runs[hi >>> HOME_BITS] as Uint8Array | Uint16Array)[k];
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
 * per run when found, and collected when new. `check` answers at once (a `skip` run must know before the
 * row is written); `defer` + `drain` hash the rows of one output chunk together, for `flag` and `keep` runs
 * whose output does not depend on the answer (with the native addon, one call per chunk).
 */
export class RowHistory {
  readonly hmac: RowHmac;
  /** Rows found among earlier runs' fingerprints, by the index of the run that wrote them. */
  readonly perRun: Map<number, number> = new Map();
  readonly fresh = new FingerprintCollector();
  alreadyExported = 0;
  private readonly nkey: Uint8Array | null;
  /** Earlier runs' fingerprints; while `loading` is unsettled, rows drained wait in `stash`. */
  private earlier: FingerprintSet | null;
  private loading: Promise<void> | null = null;
  private loaded = true;
  private loadError: unknown = null;
  /** Rows hashed before the earlier fingerprints arrived: their fingerprints (hi, lo) and row numbers. */
  private stashFps = new Uint32Array(0);
  private stashRows = new Int32Array(0);
  private stashed = 0;
  /** Lookup answers of a batch (run index or -1). */
  private runsFound = new Int32Array(4096);
  /** Deferred rows: their spans in the sink (one per row, or one per key column) and row numbers. */
  private spans = new Int32Array(2 * 4096);
  private rowNos = new Int32Array(4096);
  private pending = 0;
  private out = new Uint32Array(2 * 4096);
  /**
   * With the native addon's thread pool: each drained chunk's hashing (and, once the earlier fingerprints
   * are here, its lookups) runs there while the main thread maps on; the answers are taken in drain order,
   * one step of this chain after another. `inFlight` chunks are held until hashed (at most MAX_IN_FLIGHT;
   * beyond that a chunk is hashed at once, so a slow pool cannot pile up output).
   */
  private chain: Promise<void> = Promise.resolve();
  private chainError: unknown = null;
  private inFlight = 0;

  constructor(
    secret: Uint8Array,
    readonly mode: 'skip' | 'flag' | 'keep',
    earlier: FingerprintSet | null,
    /** Template columns the fingerprint is taken from; null: the whole output row. */
    readonly keyColumns: readonly string[] | null = null,
    /** The warning text of a flagged row, by run index (e.g. "Exported on 3 Oct 2026 by ana"). */
    readonly reasonOf: (run: number) => string = () => 'Exported by an earlier run of this mapping',
    native: NativeFingerprints | null = nativeFingerprints,
  ) {
    this.hmac = new RowHmac(secret);
    this.earlier = earlier;
    this.native = native;
    this.nkey = native ? native.prepareKey(secret) : null;
  }

  private readonly native: NativeFingerprints | null;

  /**
   * The earlier runs' fingerprints arrive later (the store reads them while the run starts): a `flag` or
   * `keep` run hashes its rows meanwhile and looks them up once they are here (settle()); a `skip` run
   * waits for them (ready()) before its first row.
   */
  loadLater(set: Promise<FingerprintSet | null>): void {
    this.loaded = false;
    this.loading = set.then(
      (found) => {
        this.earlier = found;
        this.loaded = true;
      },
      (err: unknown) => {
        this.loadError = err ?? new Error('loading the run history failed');
        this.loaded = true;
      },
    );
  }

  /** Resolves when the earlier fingerprints are here (rejects with the load's error). */
  async ready(): Promise<void> {
    if (this.loading !== null) await this.loading;
    if (this.loadError !== null) throw this.loadError;
  }

  /** After the last drain: waits for the earlier fingerprints and looks up the rows hashed before them. */
  async settle(found: (rowNo: number, run: number) => void): Promise<void> {
    await this.ready();
    await this.chain;
    if (this.chainError !== null) throw this.chainError;
    await this.unstashLater(found);
  }

  /** Looks up the rows stashed while the earlier fingerprints were loading (on the pool when it can). */
  private async unstashLater(found: (rowNo: number, run: number) => void): Promise<void> {
    const stash = this.takeStash();
    if (stash !== null) await this.accountLater(stash.fps, stash.rows, stash.n, found);
  }

  /** unstashLater() done at once (the path without the thread pool). */
  private unstash(found: (rowNo: number, run: number) => void): void {
    const stash = this.takeStash();
    if (stash !== null) this.account(stash.fps, stash.rows, stash.n, found);
  }

  /** The rows stashed so far (the stash starts over empty), or null when there are none. */
  private takeStash(): { fps: Uint32Array; rows: Int32Array; n: number } | null {
    const n = this.stashed;
    if (n === 0) return null;
    const stash = { fps: this.stashFps, rows: this.stashRows, n };
    this.stashed = 0;
    this.stashFps = new Uint32Array(0);
    this.stashRows = new Int32Array(0);
    return stash;
  }

  /**
   * Looks up fps[2i], fps[2i + 1] (i < n) among the earlier runs' fingerprints: a new one is collected,
   * one found is counted and reported with its row number.
   */
  private account(
    fps: Uint32Array,
    rowNos: Int32Array,
    n: number,
    found: (rowNo: number, run: number) => void,
  ): void {
    if (this.runsFound.length < n) this.runsFound = new Int32Array(n);
    const runs = this.runsFound;
    if (this.earlier === null) runs.fill(-1, 0, n);
    else this.earlier.findMany(fps, n, runs);
    this.tally(fps, rowNos, n, runs, found);
  }

  /** account() on the thread pool when the set can look up there (the same answers, taken in order). */
  private async accountLater(
    fps: Uint32Array,
    rowNos: Int32Array,
    n: number,
    found: (rowNo: number, run: number) => void,
  ): Promise<void> {
    const runs = new Int32Array(n);
    const later = this.earlier === null ? null : this.earlier.findManyLater(fps, n, runs);
    if (later === null) {
      this.account(fps, rowNos, n, found);
      return;
    }
    await later;
    this.tally(fps, rowNos, n, runs, found);
  }

  /** The lookups' answers: new fingerprints collected, earlier ones counted and reported. */
  private tally(
    fps: Uint32Array,
    rowNos: Int32Array,
    n: number,
    runs: Int32Array,
    found: (rowNo: number, run: number) => void,
  ): void {
    for (let i = 0; i < n; i++) {
      const run = runs[i];
      if (run < 0) this.fresh.add(fps[2 * i], fps[2 * i + 1]);
      else {
        this.seenIn(run);
        found(rowNos[i], run);
      }
    }
  }

  /** Whether fingerprints are computed by the native addon (for the bench and the logs). */
  get isNative(): boolean {
    return this.nkey !== null;
  }

  /** Fields per row in `spans`: 0 for the whole row, else the key columns' count. */
  private get fieldsPerRow(): number {
    return this.keyColumns !== null && this.keyColumns.length > 0 ? this.keyColumns.length : 0;
  }

  /** Writes the spans of one row at spans[at..]: the whole row or its key cells. */
  private putSpans(
    at: number,
    s: number,
    e: number,
    cellStarts: Int32Array | null,
    keyIndexes: Int32Array | null,
    cells: number,
  ): void {
    const spans = this.spans;
    if (cellStarts === null || keyIndexes === null) {
      spans[at] = s;
      spans[at + 1] = e;
      return;
    }
    for (let i = 0; i < keyIndexes.length; i++) {
      const j = keyIndexes[i];
      spans[at + 2 * i] = cellStarts[j];
      spans[at + 2 * i + 1] = j + 1 < cells ? cellStarts[j + 1] - 1 : e;
    }
  }

  /** The fingerprints of the first n rows in `spans` into `out`: natively in one call, else one by one. */
  private hashRows(buf: Uint8Array, n: number): void {
    if (this.nkey === null) for (let r = 0; r < n; r++) this.hashJs(buf, r);
    else
      (this.native as NativeFingerprints).hmacSpans(
        this.nkey,
        buf,
        this.spans,
        this.fieldsPerRow,
        n,
        this.out,
      );
  }

  /** The JavaScript HMAC of row r's spans into out[2r], out[2r + 1]. */
  private hashJs(buf: Uint8Array, r: number): void {
    const h = this.hmac;
    const k = this.fieldsPerRow;
    const spans = this.spans;
    if (k === 0) h.fingerprint(buf, spans[2 * r], spans[2 * r + 1]);
    else {
      h.start();
      for (let j = 0; j < k; j++) h.field(buf, spans[2 * (r * k + j)], spans[2 * (r * k + j) + 1]);
      h.finish();
    }
    this.out[2 * r] = h.hi;
    this.out[2 * r + 1] = h.lo;
  }

  /** Looks up (and collects when new) the fingerprint (hi, lo): the earlier run's index, or -1. */
  private lookup(hi: number, lo: number): number {
    const run = this.earlier === null ? -1 : this.earlier.find(hi, lo);
    if (run < 0) this.fresh.add(hi, lo);
    else this.seenIn(run);
    return run;
  }

  /** A row exported before by earlier run `run`: counted, overall and for that run. */
  private seenIn(run: number): void {
    this.alreadyExported++;
    this.perRun.set(run, (this.perRun.get(run) ?? 0) + 1);
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
    if (!this.loaded)
      throw new Error('RowHistory.check before the earlier fingerprints are loaded (await ready())');
    this.putSpans(0, s, e, cellStarts, keyIndexes, cells);
    this.hashRows(buf, 1);
    return this.lookup(this.out[0], this.out[1]);
  }

  /** Notes a row for the next drain (its bytes must stay where they are in `buf` until then). */
  defer(
    rowNo: number,
    s: number,
    e: number,
    cellStarts: Int32Array | null,
    keyIndexes: Int32Array | null,
    cells: number,
  ): void {
    const n = this.pending;
    const per = Math.max(1, this.fieldsPerRow);
    if (n === this.rowNos.length) {
      const rowNos = new Int32Array(n * 2);
      rowNos.set(this.rowNos);
      this.rowNos = rowNos;
      const spans = new Int32Array(this.spans.length * 2);
      spans.set(this.spans);
      this.spans = spans;
      this.out = new Uint32Array(this.out.length * 2);
    }
    if (this.spans.length < (n + 1) * 2 * per) {
      const spans = new Int32Array(Math.max(this.spans.length * 2, (n + 1) * 2 * per));
      spans.set(this.spans);
      this.spans = spans;
    }
    this.putSpans(2 * n * per, s, e, cellStarts, keyIndexes, cells);
    this.rowNos[n] = rowNo;
    this.pending = n + 1;
  }

  /**
   * Hashes and looks up the deferred rows of `buf`; `found(rowNo, run)` for each exported before. With the
   * native thread pool this only queues the work (`buf` must not change until settle()); without it, done now.
   */
  drain(buf: Uint8Array, found: (rowNo: number, run: number) => void): void {
    const n = this.pending;
    if (n === 0) return;
    this.pending = 0;
    const hashLater = this.nkey !== null ? this.native?.hmacSpansAsync : undefined;
    if (hashLater !== undefined) {
      let fps: Uint32Array;
      let rowNos: Int32Array;
      let hashed: Promise<void> | null = null;
      if (this.inFlight < MAX_IN_FLIGHT) {
        // The arrays go with the work; the next chunk's rows go into fresh ones.
        const spans = this.spans;
        rowNos = this.rowNos;
        this.spans = new Int32Array(spans.length);
        this.rowNos = new Int32Array(rowNos.length);
        fps = new Uint32Array(2 * n);
        hashed = hashLater(this.nkey as Uint8Array, buf, spans, this.fieldsPerRow, n, fps);
        hashed.catch(() => undefined); // reported where the chain awaits it
        this.inFlight++;
      } else {
        this.hashRows(buf, n);
        fps = this.out.slice(0, 2 * n);
        rowNos = this.rowNos.slice(0, n);
      }
      this.step(async () => {
        if (hashed !== null) {
          try {
            await hashed;
          } finally {
            this.inFlight--;
          }
        }
        await this.place(fps, rowNos, n, found);
      });
      return;
    }
    this.hashRows(buf, n);
    const out = this.out;
    if (!this.loaded) {
      this.stash(out, this.rowNos, n);
      return;
    }
    if (this.loadError !== null) return; // the run fails in settle()
    this.unstash(found);
    this.account(out, this.rowNos, n, found);
  }

  /** Adds a step to the chain (a failed step is reported by settle(); the steps after it still run). */
  private step(run: () => Promise<void>): void {
    this.chain = this.chain.then(run).catch((err: unknown) => {
      this.chainError ??= err;
    });
  }

  /** Hashed rows: looked up when the earlier fingerprints are here, else stashed until they are. */
  private async place(
    fps: Uint32Array,
    rowNos: Int32Array,
    n: number,
    found: (rowNo: number, run: number) => void,
  ): Promise<void> {
    if (!this.loaded) {
      this.stash(fps, rowNos, n);
      return;
    }
    if (this.loadError !== null) return; // the run fails in settle()
    await this.unstashLater(found);
    await this.accountLater(fps, rowNos, n, found);
  }

  /** Keeps rows hashed before the earlier fingerprints arrived: fps[0, 2n) and their row numbers. */
  private stash(fps: Uint32Array, rowNos: Int32Array, n: number): void {
    const need = this.stashed + n;
    if (this.stashRows.length < need) {
      const size = Math.max(need, 2 * this.stashRows.length);
      const grown = new Uint32Array(2 * size);
      grown.set(this.stashFps.subarray(0, 2 * this.stashed));
      const rows = new Int32Array(size);
      rows.set(this.stashRows.subarray(0, this.stashed));
      this.stashFps = grown;
      this.stashRows = rows;
    }
    this.stashFps.set(fps.subarray(0, 2 * n), 2 * this.stashed);
    this.stashRows.set(rowNos.subarray(0, n), this.stashed);
    this.stashed = need;
  }
}
