// applyMapping: streams a data file through the mapping contract (ARCHITECTURE §4) into a CSV shaped like
// the template. This module drives a run — the inference sample, then the reader feeding the row loop
// (mapping/run.ts), in one thread or two (parallel.ts) — and turns it into an output stream and stats.
// The parts: mapping/compile.ts (checks and the plan), mapping/inference.ts, mapping/transforms/,
// mapping/totals.ts, mapping/blocks.ts and mapping/worker.ts (the parallel mode's two sides).
import { Readable } from 'node:stream';
import { byteLength, chunksOf, type CsvInput } from './input';
import { needsSequential, validateApplyOptions, validateMappings } from './mapping/compile';
import { validateTemplateRules } from './mapping/rules';
import { ColumnProfile, needsProfile } from './mapping/inference';
import { MappingRun } from './mapping/run';
import { workerFile } from './mapping/worker';
import { ParallelMapper, type Staged } from './parallel';
import { CsvReader, type SourceInfo } from './reader';
import type { ApplyOptions, ApplyStats, MappingPair } from './types';

export { validateMappings };
export type { CsvInput };

export interface ApplyResult {
  /** The mapped CSV bytes. Errors (typed CsvEngineError) are emitted on this stream and reject `stats`. */
  output: Readable;
  /** Resolves when the output has been fully produced. */
  stats: Promise<ApplyStats>;
}

const MAX_PROFILE_BYTES = 16 * 1024 * 1024;

/**
 * Maps `input` onto `templateHeaders` through `mappings` (ARCHITECTURE §4). Returns the output stream and a
 * promise of the stats. Memory stays flat: the input is read chunk by chunk, with backpressure from `output`.
 */
export function applyMapping(
  input: CsvInput,
  templateHeaders: readonly string[],
  mappings: readonly MappingPair[],
  options: ApplyOptions = {},
): ApplyResult {
  // Request errors are thrown at once, before any byte is read; file errors come through the stream.
  validateApplyOptions(options);
  validateMappings(templateHeaders, mappings);
  validateTemplateRules(templateHeaders, options.templateRules);
  let resolve!: (s: ApplyStats) => void;
  let reject!: (e: unknown) => void;
  const stats = new Promise<ApplyStats>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  stats.catch(() => undefined); // callers may listen on the stream only
  let settled = false;

  async function* produce(): AsyncGenerator<Buffer> {
    const run = new MappingRun(templateHeaders, mappings, options);
    const readOptions = options.input ?? {};
    // Chains, rules (unique needs every row in one place) and patches (by row number) map in one thread.
    const par =
      (options.threads ?? 1) > 1 && !needsSequential(mappings, options) && !options.history
        ? ParallelMapper.start(workerFile)
        : null;
    // A `skip` run decides each row as it is written: it needs the earlier runs' fingerprints first.
    if (options.history?.mode === 'skip') await options.history.ready();
    const source = chunksOf(input);
    let bytesIn = 0;
    const saved: (Buffer | Uint8Array | string)[] = [];
    let inputEnded = false;
    if (needsProfile(mappings)) {
      const profile = new ColumnProfile(mappings, options);
      const profiler = new CsvReader(readOptions, {
        onHeader: (info) => profile.start(info),
        onRow: (r) => profile.row(r),
      });
      let savedBytes = 0;
      while (!profiler.stopped && savedBytes < MAX_PROFILE_BYTES) {
        const next = await source.next();
        if (next.done) {
          profiler.end();
          inputEnded = true;
          break;
        }
        saved.push(next.value);
        savedBytes += byteLength(next.value);
        profiler.push(next.value);
      }
      // Without a header in the sample the main reader reports the problem (empty file, no names).
      if (profiler.info) run.decided = profile.decide(profiler.info);
    }
    const reader = new CsvReader(readOptions, {
      onHeader: (info) => {
        run.compile(info);
        run.writeHeader();
        par?.init(run.workerInit(info, readOptions));
      },
      onRow: (r, row) => run.row(r, row),
    });
    const feed = (chunk: Buffer | Uint8Array | string): void => {
      bytesIn += byteLength(chunk);
      reader.push(chunk);
      options.onProgress?.({ rowsIn: run.stats.rowsIn, bytesIn });
    };
    try {
      for (const chunk of saved) {
        feed(chunk);
        if (reader.stopped) break;
      }
      saved.length = 0;
      while (run.chunks.length > 0) yield run.chunks.shift() as Buffer;
      if (par) {
        // Pipelined two chunks deep, so neither thread waits on the other's hiccups: chunk n+2 is read and
        // its worker part queued, then chunk n's worker part is added, then chunk n+1's head is mapped here.
        let headDone: Staged | null = null;
        let pending: Staged | null = null;
        for (;;) {
          let staged: Staged | null = null;
          if (!inputEnded && !reader.stopped) {
            const next = await source.next();
            if (next.done) inputEnded = true;
            else {
              bytesIn += byteLength(next.value);
              staged = par.stage(reader, next.value);
            }
          }
          if (headDone) {
            await par.finish(reader, run, headDone);
            headDone = null;
            options.onProgress?.({ rowsIn: run.stats.rowsIn, bytesIn });
            while (run.chunks.length > 0) yield run.chunks.shift() as Buffer;
          }
          if (pending && !reader.stopped) {
            par.runHead(reader, pending);
            headDone = pending;
          }
          pending = staged;
          if (!headDone && !pending) break;
        }
      }
      while (!reader.stopped && !inputEnded) {
        const next = await source.next();
        if (next.done) break;
        feed(next.value);
        while (run.chunks.length > 0) yield run.chunks.shift() as Buffer;
      }
      if (!reader.stopped) reader.end();
      // Keep the header even for a file with no data rows.
      if (reader.info) run.writeHeader();
      run.finish();
      await run.settleHistory();
      run.stats.source = { ...(reader.info as SourceInfo), encoding: reader.encoding };
      while (run.chunks.length > 0) yield run.chunks.shift() as Buffer;
    } finally {
      par?.close();
      // Stops (and destroys) the input when we stop early: maxRows, an error, or a closed output.
      await source.return?.();
    }
    settled = true;
    resolve(run.stats);
  }

  const gen = produce();
  const wrapped = (async function* () {
    try {
      yield* gen;
    } catch (e) {
      settled = true;
      reject(e);
      throw e;
    } finally {
      if (!settled) reject(new Error('The output stream was closed before the mapping finished.'));
    }
  })();
  const output = Readable.from(wrapped, { objectMode: false });
  return { output, stats };
}

/** applyMapping collected into one Buffer (small files, sync requests). */
export async function applyMappingToBuffer(
  input: CsvInput,
  templateHeaders: readonly string[],
  mappings: readonly MappingPair[],
  options: ApplyOptions = {},
): Promise<{ data: Buffer; stats: ApplyStats }> {
  const { output, stats } = applyMapping(input, templateHeaders, mappings, options);
  const parts: Buffer[] = [];
  for await (const chunk of output) parts.push(chunk as Buffer);
  return { data: Buffer.concat(parts), stats: await stats };
}
