// Runs a recipe on a local file with the engine the api and the worker use: the same reading, the same
// output settings ("match the template" when a template file is given) and the same control totals, so
// the bytes are the web result's bytes. No account, no server, no limits.
// Start-up: only what a run needs is loaded (measured by bench:cli). The engine's mapping and output
// modules are imported directly, not through the package index (which also loads workbook reading and
// the inspector); the recipe is checked by recipe-check.ts, and the contract's class-validator
// validation (reflection metadata and all) is loaded only for a recipe that check cannot pass.
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { Transform, type Writable } from 'node:stream';
import { applyMapping } from '../../../libs/csv-engine/src/mapping';
import { resolveOutputOptions, runTotals, writeOptionsOf } from '../../../libs/csv-engine/src/output';
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
  await pipeline(stream, passThrough(), input.out);
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

export function fileOut(path: string): Writable {
  return createWriteStream(path);
}
