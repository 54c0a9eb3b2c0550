import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// The `csv-mapper` bin as a person runs it, for the command line's specs: a separate node process from the
// sources (no build, no server, no account), in a temp dir of its own holding the files it reads.

const BIN = resolve(__dirname, '../../bin/csv-mapper.js');

/** Runs the bin with `args` in `cwd`; stdout and stderr as Buffers, or as text with 'utf8'. */
export function runBin(args: string[], cwd: string): SpawnSyncReturns<Buffer>;
export function runBin(args: string[], cwd: string, encoding: 'utf8'): SpawnSyncReturns<string>;
export function runBin(
  args: string[],
  cwd: string,
  encoding: 'buffer' | 'utf8' = 'buffer',
): SpawnSyncReturns<Buffer | string> {
  return spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding,
    env: { ...process.env, CSV_MAPPER_FROM_SOURCES: '1' },
    // Room for a few MB of CSV on stdout (the default stops the child at 1 MB).
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** A new temp dir (named from `prefix`) holding `files`, by name. */
export function binWorkDir(prefix: string, files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

/** A version 1 recipe file's text (format and version filled in). */
export function recipeFile(recipe: {
  name: string;
  templateHeaders: string[];
  mappings: unknown[];
  reading?: Record<string, unknown>;
  output?: Record<string, unknown>;
}): string {
  return JSON.stringify({ format: 'csv-mapper/recipe', version: 1, ...recipe });
}
