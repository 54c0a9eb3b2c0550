// csv-mapper: the command line. `csv-mapper run --recipe recipe.json data.csv -o out.csv` maps a local
// file with a recipe exported from CSV Mapper; a progress bar and the control totals go to stderr, the
// result to the -o file (or stdout).
import { readFileSync } from 'node:fs';
import type { Writable } from 'node:stream';
import type { DuplicatesMode, RunTotals } from '@csv-mapper/contracts';
import { fileOut, parseRecipe, RecipeError, runRecipe } from './run-recipe';

const USAGE = `Usage: csv-mapper run --recipe <recipe.json> <data.csv> [-o <out.csv>] [options]

Maps <data.csv> with a recipe exported from CSV Mapper (GET /api/mappings/:id/recipe), with the same
engine as the web app: the output is byte for byte what the web app gives for the same recipe and file.

Options:
  -r, --recipe <file>     the recipe (JSON)
  -o, --output <file>     where to write the result (default: stdout)
  -t, --template <file>   the template file: write with its delimiter, BOM, line ending and encoding
                          (what "match the template" does in the web app)
      --threads <n>       map with n threads (default 1; 2 helps on large files with a free core)
      --history <file>    remember the rows written in <file> (created if missing) and find rows an
                          earlier run with the same file wrote
      --duplicates <mode> such rows: skip (left out), flag (written, warned; default) or keep
  -q, --quiet             no progress bar and no totals
  -h, --help              this text
`;

const DUPLICATES_MODES: readonly string[] = ['skip', 'flag', 'keep'] satisfies DuplicatesMode[];
const isDuplicatesMode = (v: string): v is DuplicatesMode => DUPLICATES_MODES.includes(v);

interface Args {
  recipe?: string;
  data?: string;
  output?: string;
  template?: string;
  threads: number;
  quiet: boolean;
  history?: string;
  duplicates?: DuplicatesMode;
}

class UsageError extends Error {}

function parseArgs(argv: string[]): Args {
  const args: Args = { threads: 1, quiet: false };
  const value = (i: number, flag: string): string => {
    const v = argv[i + 1];
    if (v === undefined || v.startsWith('-')) throw new UsageError(`${flag} needs a value.`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    switch (a) {
      case '-r':
      case '--recipe':
        args.recipe = value(i++, a);
        break;
      case '-o':
      case '--output':
        args.output = value(i++, a);
        break;
      case '-t':
      case '--template':
        args.template = value(i++, a);
        break;
      case '--threads': {
        const n = Number(value(i++, a));
        if (!Number.isInteger(n) || n < 1 || n > 2) throw new UsageError('--threads must be 1 or 2.');
        args.threads = n;
        break;
      }
      case '--history':
        args.history = value(i++, a);
        break;
      case '--duplicates': {
        const mode = value(i++, a);
        if (!isDuplicatesMode(mode)) throw new UsageError('--duplicates must be skip, flag or keep.');
        args.duplicates = mode;
        break;
      }
      case '-q':
      case '--quiet':
        args.quiet = true;
        break;
      default:
        if (a.startsWith('-') && a !== '-') throw new UsageError(`Unknown option ${a}.`);
        if (args.data !== undefined) throw new UsageError('Give one data file.');
        args.data = a;
    }
  }
  return args;
}

/** Runs the command line; resolves to the exit code (0 done, 1 failed, 2 wrong usage). */
export async function main(argv: string[], stderr: Writable = process.stderr): Promise<number> {
  if (argv.length === 0 || argv.includes('-h') || argv.includes('--help')) {
    (argv.length === 0 ? stderr : process.stdout).write(USAGE);
    return argv.length === 0 ? 2 : 0;
  }
  const [command, ...rest] = argv;
  let args: Args;
  try {
    if (command !== 'run') throw new UsageError(`Unknown command "${command}": the command is "run".`);
    args = parseArgs(rest);
    if (!args.recipe) throw new UsageError('Say which recipe to run: --recipe recipe.json.');
    if (!args.data)
      throw new UsageError('Say which data file to map: csv-mapper run --recipe r.json data.csv.');
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    stderr.write(`csv-mapper: ${err.message}\n\n${USAGE}`);
    return 2;
  }
  const tty = (stderr as NodeJS.WriteStream).isTTY === true;
  const bar = args.quiet ? null : new ProgressBar(stderr, tty);
  try {
    const recipe = await parseRecipe(readFileSync(args.recipe as string, 'utf8'));
    const out = args.output ? fileOut(args.output) : process.stdout;
    const started = Date.now();
    const local = args.history
      ? (await import('./history')).LocalHistory.open(args.history, args.duplicates ?? 'flag')
      : null;
    const outcome = await runRecipe({
      recipe,
      dataPath: args.data as string,
      out,
      templatePath: args.template,
      threads: args.threads,
      ...(local ? { history: local.history } : {}),
      onProgress: (p) => bar?.update(p.bytesIn, p.totalBytes, p.rowsIn),
    });
    bar?.done();
    local?.save(outcome.totals.rowsWritten);
    if (!args.quiet) stderr.write(describeTotals(outcome.totals, Date.now() - started, args.output));
    if (local && !args.quiet) stderr.write(local.describe());
    return 0;
  } catch (err) {
    bar?.done();
    const e = err as { code?: string; message?: string };
    if (e.code === 'ENOENT') stderr.write(`csv-mapper: file not found: ${(err as { path?: string }).path}\n`);
    else if (err instanceof RecipeError || typeof e.code === 'string')
      stderr.write(`csv-mapper: ${e.message}\n`);
    else throw err;
    return 1;
  }
}

/** `[#########-----------]  45%  123,456 rows` on one line, redrawn at most 10 times a second. */
class ProgressBar {
  private last = 0;
  private drawn = false;
  constructor(
    private readonly out: Writable,
    private readonly tty: boolean,
  ) {}

  update(bytes: number, total: number, rows: number): void {
    const now = Date.now();
    if (!this.tty || now - this.last < 100) return;
    this.last = now;
    const share = total > 0 ? Math.min(1, bytes / total) : 0;
    const width = 30;
    const full = Math.round(share * width);
    const line = `[${'#'.repeat(full)}${'-'.repeat(width - full)}] ${String(Math.floor(share * 100)).padStart(3)}%  ${rows.toLocaleString('en-GB')} rows`;
    this.out.write(`\r${line}`);
    this.drawn = true;
  }

  done(): void {
    if (this.drawn) this.out.write('\r\x1b[K');
    this.drawn = false;
  }
}

export function describeTotals(t: RunTotals, ms: number, output?: string): string {
  const n = (v: number) => v.toLocaleString('en-GB');
  const lines = [
    `Rows read:     ${n(t.rowsRead)}`,
    `Rows written:  ${n(t.rowsWritten)}${output ? ` → ${output}` : ''}`,
    `Rows skipped:  ${n(t.rowsSkipped)}`,
    ...t.skipped.map((s) => `  ${s.message}`),
    `Warnings:      ${n(t.warningCount)}`,
  ];
  if (t.raggedRows > 0) lines.push(`Ragged rows:   ${n(t.raggedRows)} (padded or cut to the header)`);
  if (t.unmappableCharacters > 0)
    lines.push(`Characters the output encoding lacks (written as ?): ${n(t.unmappableCharacters)}`);
  if (t.columns.length > 0) {
    lines.push('Column totals (sum read → sum written):');
    for (const c of t.columns) {
      const same = c.sourceTotal === c.outputTotal ? '' : '  (rounded)';
      const unreadable = c.unreadable > 0 ? `, ${n(c.unreadable)} unreadable (copied as is)` : '';
      lines.push(
        `  ${c.column}: ${c.sourceTotal} → ${c.outputTotal}${same}  [${n(c.values)} values${unreadable}]`,
      );
    }
  }
  lines.push(`Done in ${(ms / 1000).toFixed(1)} s.`);
  return `${lines.join('\n')}\n`;
}
