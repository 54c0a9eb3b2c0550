// Parallel mapping (ApplyOptions.threads = 2): the main thread splits each decoded input chunk at a line
// break, hands the second part to a worker thread running the same MappingRun, and maps the first part
// itself. The split is speculative: a line break may sit inside a quoted field. It is checked exactly —
// the worker's result is used only if the main thread's parser ended the first part at a record boundary,
// which is the state a sequential parse would have reached there — otherwise the main thread maps the
// second part itself. Output bytes and stats are identical to a sequential run (tested); row and line
// numbers of the worker's warnings are renumbered on merge.
//
// A pipeline keeps both threads busy: chunk n+2 is read, split and its second part queued for the worker
// before the main thread waits for the worker's part of chunk n. The worker reads its input from three
// reused SharedArrayBuffers (no garbage per block) and returns its output as transferred
// ArrayBuffers (no copy). Any failure in the worker (a crash, an error on its block) only means the main
// thread maps that part itself, so errors carry the right line numbers.
import { Worker } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import type { CsvReader, SourceInfo } from './reader';
import { LF, type ParserLimits } from './parser';
import type { ApplyOptions, MappingPair, Warning } from './types';

/** Chunks smaller than this are mapped on the main thread (the hand-off would cost more than it saves). */
const MIN_SPLIT_BYTES = 16 * 1024;

/** What the worker needs to build the same MappingRun as the main thread. */
export interface WorkerInit {
  templateHeaders: readonly string[];
  mappings: readonly MappingPair[];
  options: ApplyOptions;
  info: SourceInfo;
  /** Column decisions of the profiling pass (date order, decimal separator), by source column. */
  decided: Map<number, unknown>;
  delimiter: number;
  limits: ParserLimits;
}

/** A control total's share of one block. */
export interface BlockTotal {
  values: number;
  unreadable: number;
  srcMicros: bigint;
  outMicros: bigint;
}

/** Stats of one block, with row numbers counted from 1 and lines from 1 within the block. */
export interface BlockStats {
  rowsIn: number;
  rowsOut: number;
  warnings: Warning[];
  /** For each ragged-row warning kept: [index in warnings, fields found, line in the block]. */
  ragged: number[];
  warningCount: number;
  requiredMissing: number;
  raggedRows: number;
  unmappableCharacters: number;
  totals: BlockTotal[];
  warningsByRule: Record<string, number>;
}

export type ToWorker =
  | { type: 'init'; init: WorkerInit }
  | { type: 'input'; slot: number; sab: SharedArrayBuffer }
  | { type: 'block'; slot: number; length: number };

export type FromWorker =
  | { type: 'ready' }
  | {
      type: 'block';
      ok: true;
      /** Bytes of complete records read (the rest starts a record that goes on in the next chunk). */
      consumed: number;
      /** Line breaks in the consumed bytes. */
      lines: number;
      rows: number;
      /** Time the worker waited for this block after finishing the previous one. */
      idleMs: number;
      stats: BlockStats;
      chunks: ArrayBuffer[];
      lengths: number[];
    }
  | { type: 'block'; ok: false };

/** The main thread's side of the mapping run, as the parallel driver needs it. */
export interface MainRun {
  readonly chunks: Buffer[];
  flush(): void;
  fits(rows: number): boolean;
  mergeBlock(stats: BlockStats, rowBase: number, lineBase: number): void;
}

type BlockResult = Extract<FromWorker, { type: 'block' }>;

const BOOT = `
const { workerData } = require('node:worker_threads');
if (workerData.swc) {
  // Tests and ts-node runs load the engine from TypeScript source: compile it on require, as they do.
  const Module = require('node:module');
  const { readFileSync } = require('node:fs');
  const { transformSync } = require(workerData.swc);
  Module._extensions['.ts'] = (m, filename) =>
    m._compile(
      transformSync(readFileSync(filename, 'utf8'), {
        filename,
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
        module: { type: 'commonjs' },
      }).code,
      filename,
    );
}
require(workerData.file).mappingWorkerMain();
`;

/** Process-wide counts, for tests and diagnostics. */
export const parallelCounters = {
  /** Workers that finished loading and are mapping blocks. */
  ready: 0,
  /** Blocks the worker mapped and the main thread used. */
  hits: 0,
  /** Blocks the worker mapped in vain: the split was inside a quoted field, or past maxRows. */
  misses: 0,
};

/** One input chunk on its way through the pipeline. */
export interface Staged {
  /** The decoded chunk. */
  data: Buffer;
  /** Bytes the main thread maps: all of `data` when it was not split. */
  head: number;
  /** The worker's result for data[head..], when it was split. */
  result: Promise<BlockResult> | null;
  /** The main thread's parser ended `head` at a record boundary (set by runHead). */
  boundary: boolean;
  /** The decoder found invalid bytes in this chunk or an earlier one: report it when this head is mapped. */
  invalid: boolean;
}

export class ParallelMapper {
  private readonly worker: Worker;
  private ready = false;
  private broken = false;
  private readonly waiting: ((r: BlockResult) => void)[] = [];
  /** Shared input buffers: up to three blocks are in flight. */
  private readonly slots: Buffer[] = [Buffer.alloc(0), Buffer.alloc(0), Buffer.alloc(0)];
  private slot = 0;
  /** Share of each chunk the main thread maps, moved so that neither thread waits for the other. */
  private ratio = 0.5;

  /** `file`: the module that exports mappingWorkerMain (mapping/worker.ts, or .js in dist/). */
  private constructor(file: string) {
    let swc: string | null = null;
    if (file.endsWith('.ts')) swc = require.resolve('@swc/core');
    this.worker = new Worker(BOOT, { eval: true, workerData: { file, swc } });
    this.worker.unref();
    this.worker.on('message', (m: FromWorker) => {
      if (m.type === 'ready') {
        this.ready = true;
        parallelCounters.ready++;
      } else this.settle(m);
    });
    this.worker.on('error', () => this.fail());
    this.worker.on('exit', () => this.fail());
  }

  /** Starts the worker, or returns null when it cannot be started here. */
  static start(file: string): ParallelMapper | null {
    try {
      return new ParallelMapper(file);
    } catch {
      return null;
    }
  }

  /** Called once the header is known and the main run is compiled. */
  init(init: WorkerInit): void {
    this.post({ type: 'init', init });
  }

  /**
   * Stage 1: decodes a chunk and, when the worker is ready and the chunk big enough, queues its second
   * part (from a line break on) for the worker.
   */
  stage(reader: CsvReader, chunk: Buffer | Uint8Array | string): Staged {
    const data = reader.decode(chunk);
    const invalid = reader.invalidEncoding;
    const whole: Staged = { data, head: data.length, result: null, boundary: false, invalid };
    if (!this.ready || this.broken || !reader.inBody || invalid) return whole;
    if (data.length < MIN_SPLIT_BYTES) return whole;
    const cut = data.indexOf(LF, Math.floor(data.length * this.ratio));
    if (cut < 0 || cut + 1 >= data.length) return whole;
    return { data, head: cut + 1, result: this.send(data.subarray(cut + 1)), boundary: false, invalid };
  }

  /**
   * Stage 2: the main thread maps its part (after every earlier chunk is finished). A later chunk may have
   * been decoded already: an encoding error is reported with the chunk that holds it, as in one thread.
   */
  runHead(reader: CsvReader, s: Staged): void {
    reader.pushDecoded(s.head === s.data.length ? s.data : s.data.subarray(0, s.head), s.invalid);
    s.boundary = reader.atRecordStart && !reader.stopped;
  }

  /** Stage 3: adds the worker's part, or maps it here when the split was not at a record boundary. */
  async finish(reader: CsvReader, run: MainRun, s: Staged): Promise<void> {
    if (!s.result) return;
    const t0 = performance.now();
    const r = await s.result;
    const waitMs = performance.now() - t0;
    const tail = s.data.subarray(s.head);
    if (!r.ok || !s.boundary || reader.stopped || !run.fits(r.rows)) {
      if (r.ok) parallelCounters.misses++;
      // Encoding errors are reported when the chunk that holds them is mapped (runHead), as in a
      // sequential run: the next chunk has been decoded already.
      reader.pushDecoded(tail, false);
      return;
    }
    parallelCounters.hits++;
    run.flush();
    run.mergeBlock(r.stats, reader.rows, reader.line);
    for (let k = 0; k < r.chunks.length; k++) run.chunks.push(Buffer.from(r.chunks[k], 0, r.lengths[k]));
    reader.skipRecords(r.rows, r.lines, r.consumed);
    if (r.consumed < tail.length) reader.pushDecoded(tail.subarray(r.consumed), false);
    // The main thread waited: give it more of the next chunks. The worker waited: give it more. In
    // proportion to the time lost (a block takes a few ms), so the split settles where neither waits.
    const step = Math.max(-0.02, Math.min(0.02, (waitMs - r.idleMs) * 0.01));
    this.ratio = Math.min(0.8, Math.max(0.2, this.ratio + step));
  }

  close(): void {
    this.broken = true;
    void this.worker.terminate();
  }

  private send(bytes: Buffer): Promise<BlockResult> {
    const slot = this.slot;
    this.slot = (slot + 1) % this.slots.length;
    let shared = this.slots[slot];
    if (shared.length < bytes.length) {
      const size = Math.max(Math.ceil(bytes.length * 1.25), 64 * 1024);
      const sab = new SharedArrayBuffer(size);
      shared = Buffer.from(sab);
      this.slots[slot] = shared;
      this.post({ type: 'input', slot, sab });
    }
    bytes.copy(shared, 0);
    const p = new Promise<BlockResult>((resolve) => this.waiting.push(resolve));
    this.post({ type: 'block', slot, length: bytes.length });
    return p;
  }

  private post(m: ToWorker): void {
    if (this.broken) {
      if (m.type === 'block') this.settle({ type: 'block', ok: false });
      return;
    }
    this.worker.postMessage(m);
  }

  private settle(r: BlockResult): void {
    this.waiting.shift()?.(r);
  }

  private fail(): void {
    this.broken = true;
    while (this.waiting.length > 0) this.settle({ type: 'block', ok: false });
  }
}
