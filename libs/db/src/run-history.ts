import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { copyBinaryOut, quoteLiteral } from './copy-binary';
import { FingerprintSet, RowHistory, type FingerprintCollector } from '@csv-mapper/csv-engine';
import type {
  AlreadyExportedFrom,
  ControlTotal,
  DuplicatesMode,
  MappingRunSource,
  MappingRunView,
  MappingRunsPage,
} from '@csv-mapper/contracts';

// Run history of saved mappings (issue 30), for the api (sync runs) and the worker (background jobs): a
// mapping_runs row per run, the team's fingerprint secret, loading a mapping's earlier fingerprints into a
// compact set before a run streams, storing the run's new ones after it succeeded, and pruning what is
// older than HISTORY_RETENTION_DAYS. Only counts, control totals and truncated keyed hashes are stored.

export const DEFAULT_HISTORY_RETENTION_DAYS = 396;

/** HISTORY_RETENTION_DAYS (default 396, 13 months): how long runs and fingerprints are kept. */
export function historyRetentionDays(env: NodeJS.ProcessEnv = process.env): number {
  const v = Number(env.HISTORY_RETENTION_DAYS ?? DEFAULT_HISTORY_RETENTION_DAYS);
  return Number.isInteger(v) && v >= 1 ? v : DEFAULT_HISTORY_RETENTION_DAYS;
}
/** Fingerprint rows per INSERT when a run's are stored (each row holds one bucket's, up to ~2 MB). */
const INSERT_ROWS = 8;

export interface RunStart {
  mappingId: string;
  teamId: string;
  userId: string | null;
  source: MappingRunSource;
  duplicates: DuplicatesMode;
  keyColumns: string[] | null;
  dataFilename: string | null;
  /** A background job: a job that runs again is the same run. */
  jobId?: string | null;
  batchId?: string | null;
  /** A corrected rerun: the run it replaces (by id, or by the background job that ran it). */
  supersedes?: { runId?: string | null; jobId?: string | null };
}

export interface RunOutcome {
  rowsRead: number;
  rowsWritten: number;
  rowsAlreadyExported: number;
  rowsSkipped: number;
  controlTotals: ControlTotal[];
  resultKey?: string | null;
  resultExpiresAt?: Date | null;
}

/** An earlier run, as named in `alreadyExportedFrom`. */
interface EarlierRun {
  id: string;
  at: Date;
  userId: string | null;
  name: string | null;
}

/** A started run: its id, the engine hook (ApplyOptions.history) and the earlier runs it may name. */
export class StartedRun {
  constructor(
    readonly runId: string,
    readonly mappingId: string,
    readonly history: RowHistory,
    private readonly earlier: EarlierRun[],
    /** The run a corrected rerun replaces (its fingerprints are dropped when this one completes). */
    readonly supersedes: string | null = null,
  ) {}

  /** The earlier runs this run's already exported rows came from, oldest first. */
  alreadyExportedFrom(): AlreadyExportedFrom[] {
    return [...this.history.perRun.entries()]
      .sort(([a], [b]) => a - b)
      .map(([i, rows]) => {
        const r = this.earlier[i];
        return {
          runId: r.id,
          at: r.at.toISOString(),
          by: r.userId && r.name ? { userId: r.userId, name: r.name } : null,
          rows,
        };
      });
  }
}

/** "Exported on 3 Oct 2026 by ana" */
function reasonFor(r: EarlierRun | undefined): string {
  if (!r) return 'Exported by an earlier run of this mapping';
  const day = r.at.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
  return `Exported on ${day}${r.name ? ` by ${r.name}` : ''}`;
}

interface BucketCount {
  bucket: number;
  n: string;
}

export class RunHistoryStore {
  constructor(
    private readonly ds: DataSource,
    readonly retentionDays = DEFAULT_HISTORY_RETENTION_DAYS,
  ) {}

  /** The team's fingerprint secret, made on first use (32 random bytes; never leaves the servers). */
  async secretOf(teamId: string): Promise<Buffer> {
    await this.ds.query(
      `INSERT INTO team_history_keys (team_id, secret) VALUES ($1, $2) ON CONFLICT (team_id) DO NOTHING`,
      [teamId, randomBytes(32)],
    );
    const rows = (await this.ds.query(`SELECT secret FROM team_history_keys WHERE team_id = $1`, [
      teamId,
    ])) as Array<{ secret: Buffer }>;
    return rows[0].secret;
  }

  /**
   * Records the run (or finds it again: a background job that runs again) and loads the mapping's earlier
   * fingerprints (other runs', within the retention) into the set its rows are checked against.
   */
  async start(s: RunStart): Promise<StartedRun> {
    const rows = (await this.ds.query(
      `INSERT INTO mapping_runs (mapping_id, team_id, user_id, source, duplicates, data_filename, job_id, batch_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (job_id) WHERE job_id IS NOT NULL DO UPDATE SET state = 'running', finished_at = NULL
       RETURNING id`,
      [
        s.mappingId,
        s.teamId,
        s.userId,
        s.source,
        s.duplicates,
        s.dataFilename?.slice(0, 255) ?? null,
        s.jobId ?? null,
        s.batchId ?? null,
      ],
    )) as Array<{ id: string }>;
    const runId = rows[0].id;
    let supersedes = s.supersedes?.runId ?? null;
    if (!supersedes && s.supersedes?.jobId) {
      const found = (await this.ds.query(`SELECT id FROM mapping_runs WHERE job_id = $1`, [
        s.supersedes.jobId,
      ])) as Array<{ id: string }>;
      supersedes = found[0]?.id ?? null;
    }
    const secret = await this.secretOf(s.teamId);
    const other = supersedes ?? runId;
    const { counts, earlier } = await this.earlierRuns(s.mappingId, runId, other);
    const labels = earlier.map(reasonFor);
    const history = new RowHistory(
      secret,
      s.duplicates,
      null,
      s.keyColumns,
      (i) => labels[i] ?? reasonFor(undefined),
    );
    // The fingerprints themselves are read while the run starts (a flag or keep run hashes its rows
    // meanwhile; a skip run waits for them before its first row).
    if (counts.length > 0) history.loadLater(this.loadSet(s.mappingId, runId, other, counts, earlier));
    return new StartedRun(runId, s.mappingId, history, earlier, supersedes);
  }

  private cutoff(): string {
    return `now() - make_interval(days => ${Math.max(1, Math.floor(this.retentionDays))})`;
  }

  /** The earlier runs (oldest first) whose fingerprints count, and how many fingerprints each bucket holds. */
  private async earlierRuns(
    mappingId: string,
    runId: string,
    other: string,
  ): Promise<{ counts: BucketCount[]; earlier: EarlierRun[] }> {
    const cutoff = this.cutoff();
    const counts = (await this.ds.query(
      `SELECT bucket, sum(count)::bigint AS n FROM mapping_fingerprints
        WHERE mapping_id = $1 AND run_id <> $2 AND run_id <> $3 AND created_at > ${cutoff} GROUP BY bucket`,
      [mappingId, runId, other],
    )) as BucketCount[];
    if (counts.length === 0) return { counts, earlier: [] };
    const runs = (await this.ds.query(
      `SELECT r.id, r.created_at, r.user_id, u.username FROM mapping_runs r
         LEFT JOIN users u ON u.id = r.user_id
        WHERE r.id IN (SELECT DISTINCT run_id FROM mapping_fingerprints
                        WHERE mapping_id = $1 AND run_id <> $2 AND run_id <> $3 AND created_at > ${cutoff})
        ORDER BY r.created_at, r.id`,
      [mappingId, runId, other],
    )) as Array<{ id: string; created_at: Date; user_id: string | null; username: string | null }>;
    const earlier = runs.map((r) => ({ id: r.id, at: r.created_at, userId: r.user_id, name: r.username }));
    return { counts, earlier };
  }

  /**
   * The set of the earlier runs' fingerprints, streamed by a binary COPY in bucket order (the stored bytes
   * as they are: no hex or base64 to encode and decode) and added a bucket at a time (its rows, one per
   * earlier run, each with the index of its run among `earlier`); reading pauses while a few buckets wait
   * to be added, so they are all the memory the read holds besides the set.
   */
  private async loadSet(
    mappingId: string,
    runId: string,
    other: string,
    counts: BucketCount[],
    earlier: EarlierRun[],
  ): Promise<FingerprintSet> {
    const set = new FingerprintSet(earlier.length);
    for (const { bucket, n } of counts) set.reserve(bucket, Number(n));
    const ids = earlier.map((r) => quoteLiteral(r.id)).join(', ');
    // With the native addon, a bucket is added on its thread pool while the run maps on the main thread.
    let bucket = -1;
    let parts: Buffer[] = [];
    let runs: number[] = [];
    const addBucket = () => (parts.length === 0 ? undefined : set.addBucketLater(bucket, parts, runs));
    await copyBinaryOut(
      this.ds,
      `SELECT bucket::int4, coalesce(array_position(ARRAY[${ids}]::uuid[], run_id), 1) - 1, fingerprints
         FROM mapping_fingerprints
        WHERE mapping_id = ${quoteLiteral(mappingId)} AND run_id <> ${quoteLiteral(runId)}
          AND run_id <> ${quoteLiteral(other)} AND created_at > ${this.cutoff()}
        ORDER BY bucket, created_at, id`,
      ([b, run, bytes]) => {
        if (b === null || run === null || bytes === null) return undefined;
        const next = b.readInt32BE(0);
        let queued: Promise<void> | undefined;
        if (next !== bucket) {
          queued = addBucket();
          bucket = next;
          parts = [];
          runs = [];
        }
        parts.push(bytes);
        runs.push(run.readInt32BE(0));
        return queued;
      },
    );
    await addBucket();
    await set.added();
    return set;
  }

  /** After the run succeeded: its new fingerprints (a few multi-row INSERTs) and its figures. */
  async complete(
    runId: string,
    mappingId: string,
    fresh: FingerprintCollector,
    o: RunOutcome,
    supersedes: string | null = null,
  ): Promise<void> {
    await this.ds.transaction(async (m) => {
      // A job that ran again replaces what its earlier attempt stored; a corrected rerun, the reviewed run's.
      await m.query(`DELETE FROM mapping_fingerprints WHERE run_id = $1 OR run_id = $2`, [
        runId,
        supersedes ?? runId,
      ]);
      let batch: unknown[] = [];
      let values: string[] = [];
      const flush = async () => {
        if (values.length === 0) return;
        await m.query(
          `INSERT INTO mapping_fingerprints (mapping_id, run_id, bucket, count, fingerprints) VALUES ${values.join(', ')}`,
          batch,
        );
        batch = [];
        values = [];
      };
      for (const { bucket, count, bytes } of fresh.buckets()) {
        const k = batch.length;
        values.push(`($${k + 1}, $${k + 2}, $${k + 3}, $${k + 4}, $${k + 5})`);
        batch.push(
          mappingId,
          runId,
          bucket,
          count,
          Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length),
        );
        if (values.length >= INSERT_ROWS) await flush();
      }
      await flush();
      await m.query(
        `UPDATE mapping_runs SET state = 'completed', finished_at = now(), rows_read = $2, rows_written = $3,
                rows_already_exported = $4, rows_skipped = $5, control_totals = $6, result_key = $7,
                result_expires_at = $8, error_code = NULL
          WHERE id = $1`,
        [
          runId,
          o.rowsRead,
          o.rowsWritten,
          o.rowsAlreadyExported,
          o.rowsSkipped,
          JSON.stringify(o.controlTotals),
          o.resultKey ?? null,
          o.resultExpiresAt ?? null,
        ],
      );
    });
  }

  /** The run failed: nothing of it is remembered as exported. */
  async fail(runId: string, code: string): Promise<void> {
    await this.ds.query(
      `UPDATE mapping_runs SET state = 'failed', finished_at = now(), error_code = $2 WHERE id = $1`,
      [runId, code.slice(0, 64)],
    );
  }

  /** A failed background job's run (by job id), if it had one. */
  async failJob(jobId: string, code: string): Promise<void> {
    await this.ds.query(
      `UPDATE mapping_runs SET state = 'failed', finished_at = now(), error_code = $2
        WHERE job_id = $1 AND state <> 'completed'`,
      [jobId, code.slice(0, 64)],
    );
  }

  /** A mapping's runs, newest first (`cursor`: the offset the previous page answered). */
  async list(
    mappingId: string,
    teamId: string,
    appUrl: string,
    cursor: number,
    limit: number,
  ): Promise<MappingRunsPage> {
    const rows = (await this.ds.query(
      `SELECT r.*, u.username, count(*) OVER () AS total FROM mapping_runs r
         LEFT JOIN users u ON u.id = r.user_id
        WHERE r.mapping_id = $1 AND r.team_id = $2
        ORDER BY r.created_at DESC, r.id DESC OFFSET $3 LIMIT $4`,
      [mappingId, teamId, cursor, limit],
    )) as Array<Record<string, unknown>>;
    let total = rows.length > 0 ? Number(rows[0].total) : 0;
    if (rows.length === 0 && cursor > 0) {
      const c = (await this.ds.query(
        `SELECT count(*)::int AS n FROM mapping_runs WHERE mapping_id = $1 AND team_id = $2`,
        [mappingId, teamId],
      )) as Array<{ n: number }>;
      total = c[0].n;
    }
    const now = Date.now();
    const runs: MappingRunView[] = rows.map((r) => {
      const expires = r.result_expires_at as Date | null;
      const kept = r.job_id && expires && expires.getTime() > now;
      return {
        id: r.id as string,
        mappingId: r.mapping_id as string,
        source: r.source as MappingRunSource,
        state: r.state as MappingRunView['state'],
        by: r.user_id && r.username ? { userId: r.user_id as string, name: r.username as string } : null,
        createdAt: (r.created_at as Date).toISOString(),
        finishedAt: r.finished_at ? (r.finished_at as Date).toISOString() : null,
        dataFilename: (r.data_filename as string | null) ?? null,
        jobId: (r.job_id as string | null) ?? null,
        batchId: (r.batch_id as string | null) ?? null,
        rowsRead: r.rows_read as number,
        rowsWritten: r.rows_written as number,
        rowsAlreadyExported: r.rows_already_exported as number,
        rowsSkipped: r.rows_skipped as number,
        duplicates: r.duplicates as DuplicatesMode,
        controlTotals: (r.control_totals as ControlTotal[] | null) ?? null,
        resultUrl: kept ? `${appUrl}/api/jobs/${encodeURIComponent(r.job_id as string)}/result` : null,
        resultExpiresAt: kept && expires ? expires.toISOString() : null,
        errorCode: (r.error_code as string | null) ?? null,
      };
    });
    const next = cursor + runs.length;
    return { runs, nextCursor: next < total ? String(next) : null, total };
  }

  /** Drops fingerprints and runs older than the retention (the worker's hourly cleanup). */
  async prune(): Promise<{ fingerprints: number; runs: number }> {
    const days = Math.max(1, Math.floor(this.retentionDays));
    const f = (await this.ds.query(
      `DELETE FROM mapping_fingerprints WHERE created_at < now() - make_interval(days => ${days})`,
    )) as [unknown, number];
    const r = (await this.ds.query(
      `DELETE FROM mapping_runs WHERE created_at < now() - make_interval(days => ${days})`,
    )) as [unknown, number];
    return { fingerprints: f[1] ?? 0, runs: r[1] ?? 0 };
  }
}
