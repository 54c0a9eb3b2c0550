// Runs a recipe on a local file with the engine the api and the worker use: the same reading, the same
// output settings ("match the template" when a template file is given) and the same control totals, so
// the bytes are the web result's bytes. No account, no server, no limits.
import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { Transform, type Writable } from 'node:stream';
import {
  applyMapping,
  inspect,
  resolveOutputOptions,
  runTotals,
  writeOptionsOf,
  type ApplyOptions,
  type TemplateFormat,
} from '@csv-mapper/csv-engine';
import { Recipe, type ResolvedOutputOptions, type RunTotals } from '@csv-mapper/contracts';

export class RecipeError extends Error {}

/** Parses and validates a recipe file's text (the same contract POST /api/mappings/import validates). */
export function parseRecipe(text: string): Recipe {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new RecipeError('The recipe is not valid JSON. Export it again from CSV Mapper.');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new RecipeError('The recipe must be a JSON object.');
  }
  const recipe = plainToInstance(Recipe, json);
  const errors = validateSync(recipe, { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length > 0) {
    throw new RecipeError(`The recipe is not valid: ${messages(errors).slice(0, 5).join('; ')}.`);
  }
  return recipe;
}

function messages(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((e) => {
    const at = prefix ? `${prefix}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((m) => (m.startsWith(e.property) ? m : `${at}: ${m}`));
    return [...own, ...messages(e.children ?? [], at)];
  });
}

/** How the template file is written: what "match the template" copies. */
export async function templateFormatOf(path: string): Promise<TemplateFormat> {
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
