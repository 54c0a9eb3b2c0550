// Runs a recipe on a local file with the engine the api and the worker use: the same reading, the same
// output settings ("match the template" when a template file is given) and the same control totals, so
// the bytes are the web result's bytes. No account, no server, no limits.
// Start-up: only what a run needs is loaded (measured by bench:cli). The engine's mapping and output
// modules are imported directly, not through the package index (which also loads workbook reading and
// the inspector); the recipe is checked by recipe-check.ts, and the contract's class-validator
// validation (reflection metadata and all) is loaded only for a recipe that check cannot pass.
import { close, createReadStream, open, statSync, write } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { Transform, Writable } from 'node:stream';
import { applyMapping } from '../../../libs/csv-engine/src/mapping';
import { resolveOutputOptions, runTotals, writeOptionsOf } from '../../../libs/csv-engine/src/output';
import { recycleChunk } from '../../../libs/csv-engine/src/writer';
import type { ApplyOptions, TemplateFormat } from '@csv-mapper/csv-engine';
import type { Recipe, ResolvedOutputOptions, RunTotals } from '@csv-mapper/contracts';
import { quickRecipe, RecipeError } from './recipe-check';

export { RecipeError };

/**
 * Parses and validates a recipe file's text (the same contract POST /api/mappings/import validates, with
 * the same messages).
 */
export async function parseRecipe(text: string): Promise<Recipe> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new RecipeError('The recipe is not valid JSON. Export it again from CSV Mapper.');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new RecipeError('The recipe must be a JSON object.');
  }
  const quick = quickRecipe(json as Record<string, unknown>);
  if (quick !== null) return quick;
  const { validateRecipe } = await import('./recipe-validate');
  return validateRecipe(json);
}

/** How the template file is written: what "match the template" copies. */
export async function templateFormatOf(path: string): Promise<TemplateFormat> {
  const { inspect } = await import('../../../libs/csv-engine/src/inspect');
  const t = await inspect(createReadStream(path));
  return { delimiter: t.delimiter, bom: t.bom, lineEnding: t.lineEnding, encoding: t.encoding };
}

export interface RunInput {
  recipe: Recipe;
  dataPath: string;
  /** Where the result goes (a file stream or stdout). */
  out: Writable;
  /** The template file to match (delimiter, BOM, line ending, encoding), if any. */
  templatePath?: string;
  threads?: number;
  /** --history: every written row checked against (and added to) a local run history. */
  history?: ApplyOptions['history'];
  onProgress?(p: { rowsIn: number; bytesIn: number; totalBytes: number }): void;
}

export interface RunOutcome {
  totals: RunTotals;
  output: ResolvedOutputOptions;
  warnings: { row: number; column: string; value: string; reason: string }[];
}

export async function runRecipe(input: RunInput): Promise<RunOutcome> {
  const { recipe } = input;
  const template = input.templatePath ? await templateFormatOf(input.templatePath) : null;
  const output = resolveOutputOptions(recipe.output, template);
  const reading = recipe.reading ?? {};
  const totalBytes = statSync(input.dataPath).size;
  const options: ApplyOptions = {
    // Detected as the upload's inspection detects (the same reader), unless the recipe says otherwise.
    input: {
      ...(reading.encoding ? { encoding: reading.encoding } : {}),
      ...(reading.delimiter ? { delimiter: reading.delimiter } : {}),
      // headerRow 0: the file has no header row (every record is data, columns `Column 1…N`).
      ...(reading.headerRow !== undefined ? { headerRow: reading.headerRow } : {}),
    },
    ...writeOptionsOf(output),
    ...(recipe.templateRules && Object.keys(recipe.templateRules).length > 0
      ? { templateRules: recipe.templateRules }
      : {}),
    maxWarnings: 100,
    threads: input.threads ?? 1,
    ...(input.history ? { history: input.history } : {}),
    onProgress: ({ rowsIn, bytesIn }) => input.onProgress?.({ rowsIn, bytesIn, totalBytes }),
  };
  const { output: stream, stats } = applyMapping(
    createReadStream(input.dataPath, { highWaterMark: 1 << 20 }),
    recipe.templateHeaders,
    recipe.mappings,
    options,
  );
  if (input.out instanceof FileOut) {
    // The chunks written to the file go back to the engine for later output (no fresh memory per chunk),
    // except with a run history, which may still read a chunk after it is handed over.
    input.out.written = input.history ? null : recycleChunk;
    await pipeline(stream, input.out);
  } else await pipeline(stream, passThrough(), input.out);
  const s = await stats;
  return { totals: runTotals(s, s.rowsIn), output, warnings: s.warnings };
}

/** Keeps stdout open after the pipeline (pipeline ends its last stream). */
function passThrough(): Transform {
  return new Transform({
    transform(chunk: Buffer, _e, cb) {
      cb(null, chunk);
    },
  });
}

/**
 * The -o file, written chunk by chunk with fs.write: each chunk's write is known to be finished, and
 * `written` (when set) gets the chunk then. The default high-water mark (one chunk at a time): with more
 * chunks waiting (tried: 4 MB) the run was slower, more output memory in use at once.
 */
export class FileOut extends Writable {
  written: ((chunk: Buffer) => void) | null = null;
  private fd: number | null = null;

  constructor(private readonly path: string) {
    super();
  }

  override _construct(callback: (err?: Error | null) => void): void {
    open(this.path, 'w', (err, fd) => {
      this.fd = err ? null : fd;
      callback(err);
    });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (err?: Error | null) => void): void {
    this.writeFrom(chunk, 0, callback);
  }

  private writeFrom(chunk: Buffer, at: number, callback: (err?: Error | null) => void): void {
    write(this.fd as number, chunk, at, chunk.length - at, null, (err, n) => {
      if (err) return callback(err);
      if (at + n < chunk.length) return this.writeFrom(chunk, at + n, callback);
      this.written?.(chunk);
      callback();
    });
  }

  override _destroy(err: Error | null, callback: (err?: Error | null) => void): void {
    if (this.fd === null) return callback(err);
    const fd = this.fd;
    this.fd = null;
    close(fd, (closeErr) => callback(err ?? closeErr));
  }
}

export function fileOut(path: string): Writable {
  return new FileOut(path);
}
