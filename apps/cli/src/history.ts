// csv-mapper run --history FILE: the run history of issue 30 for the command line, kept in a local file
// instead of the server's database. The file holds a random 32-byte secret made when the file is created,
// and per run its id, time, rows and its rows' fingerprints (the first 8 bytes of HMAC-SHA-256 of each
// written row under that secret) — no cell value. Runs older than 396 days are dropped when it is saved.
// Loaded only when --history is given (the tool's start-up stays lean).
import { randomBytes, randomUUID } from 'node:crypto';
import type { DuplicatesMode } from '@csv-mapper/contracts';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { BUCKETS, FingerprintSet, RowHistory } from '../../../libs/csv-engine/src/history/set';

export const HISTORY_FORMAT = 'csv-mapper/history';
const RETENTION_MS = 396 * 24 * 3600_000;

interface StoredRun {
  id: string;
  at: string;
  rows: number;
  /** Packed 8-byte fingerprints, base64. */
  fingerprints: string;
}

interface HistoryFile {
  format: typeof HISTORY_FORMAT;
  version: 1;
  secret: string;
  runs: StoredRun[];
}

export class LocalHistory {
  readonly history: RowHistory;
  private readonly runId = randomUUID();

  private constructor(
    private readonly path: string,
    private readonly file: HistoryFile,
    mode: DuplicatesMode,
  ) {
    const set = file.runs.length > 0 ? new FingerprintSet() : null;
    if (set) {
      // Split every run's fingerprints by bucket (their first 6 bits), then fill each bucket's table.
      const parts: Array<Array<{ run: number; bytes: Buffer }>> = Array.from({ length: BUCKETS }, () => []);
      file.runs.forEach((r, run) => {
        const all = Buffer.from(r.fingerprints, 'base64');
        const byBucket: number[][] = Array.from({ length: BUCKETS }, () => []);
        for (let i = 0; i + 8 <= all.length; i += 8) byBucket[all[i] >> 2].push(i);
        byBucket.forEach((offsets, b) => {
          if (offsets.length === 0) return;
          const bytes = Buffer.allocUnsafe(offsets.length * 8);
          offsets.forEach((o, k) => all.copy(bytes, k * 8, o, o + 8));
          parts[b].push({ run, bytes });
        });
      });
      parts.forEach((list, b) => {
        const n = list.reduce((a, p) => a + p.bytes.length / 8, 0);
        if (n === 0) return;
        set.reserve(b, n);
        for (const p of list) set.addPacked(b, p.bytes, p.run);
      });
    }
    const labels = file.runs.map(
      (r) =>
        `Exported on ${new Date(r.at).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })} (run ${r.id.slice(0, 8)})`,
    );
    this.history = new RowHistory(
      Buffer.from(file.secret, 'base64'),
      mode,
      set,
      null,
      (i) => labels[i] ?? '',
    );
  }

  /** Opens (or starts) the history file. */
  static open(path: string, mode: DuplicatesMode): LocalHistory {
    let file: HistoryFile;
    if (existsSync(path)) {
      const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<HistoryFile>;
      if (parsed.format !== HISTORY_FORMAT || parsed.version !== 1 || typeof parsed.secret !== 'string') {
        throw Object.assign(new Error(`${path} is not a csv-mapper history file.`), {
          code: 'INVALID_HISTORY',
        });
      }
      file = parsed as HistoryFile;
      file.runs = (file.runs ?? []).filter((r) => Date.now() - Date.parse(r.at) < RETENTION_MS);
    } else {
      file = { format: HISTORY_FORMAT, version: 1, secret: randomBytes(32).toString('base64'), runs: [] };
    }
    return new LocalHistory(path, file, mode);
  }

  /** After a successful run: appends its fingerprints and writes the file (a temp file renamed over it). */
  save(rowsWritten: number): void {
    const parts: Buffer[] = [];
    for (const { bytes } of this.history.fresh.buckets()) parts.push(Buffer.from(bytes));
    this.file.runs.push({
      id: this.runId,
      at: new Date().toISOString(),
      rows: rowsWritten,
      fingerprints: Buffer.concat(parts).toString('base64'),
    });
    const tmp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.file));
    renameSync(tmp, this.path);
  }

  /** One line for stderr: rows an earlier run exported, by run. */
  describe(): string {
    const h = this.history;
    if (h.alreadyExported === 0) return 'already exported: none of these rows (history kept)\n';
    const by = [...h.perRun.entries()]
      .map(([i, n]) => `${n} on ${this.file.runs[i]?.at.slice(0, 10) ?? '?'}`)
      .join(', ');
    const what = h.mode === 'skip' ? 'left out' : h.mode === 'flag' ? 'written, flagged' : 'written';
    return `already exported: ${h.alreadyExported} rows (${by}); ${what}\n`;
  }
}
