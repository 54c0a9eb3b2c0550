import type { DataSource, EntityManager } from 'typeorm';
import { limitsOf, UNLIMITED } from '@csv-mapper/domain';

// Monthly rows: the one place that reserves, commits, refunds and resets them, for the sync path (api),
// background jobs (worker) and the monthly reset (worker cron). A month's count starts lazily: a user whose
// last reset is in an earlier month has used nothing this month, whether or not the reset has run yet.
// Quota is per team: a team's count is kept on its owner's users row (a team's id is its owner's id, and
// that row holds the plan too), so the `userId` of reserve/refund/usedThisMonth is the team's id.

/** SQL: true when the user's count belongs to an earlier month than now (UTC). */
const STALE = `date_trunc('month', COALESCE(last_reset_at, created_at)) < date_trunc('month', now())`;

/** Rows of a file a plan may map in one run (the monthly cap comes on top, at reservation). */
export function rowsAllowedForFile(plan: string, fileRows: number): number {
  const max = limitsOf(plan).maxRowsPerFile;
  return max === UNLIMITED ? fileRows : Math.min(fileRows, max);
}

export type LimitType = 'monthlyQuota' | 'rows' | null;

export interface Reservation {
  granted: number;
  /** What the plan allows of this file before the monthly cap. */
  perFile: number;
  /** Which limit cut the run short, if one did. */
  limitType: LimitType;
}

export interface UsageRecord {
  /** Who ran it (shown in the usage history). */
  userId: string;
  /** Whose quota it used; defaults to userId (jobs queued before teams: their owner's id is the team's). */
  teamId?: string;
  /** Rows reserved for this run (given back where the run used fewer). */
  reservedRows: number;
  rowsProcessed: number;
  fileSizeBytes: number;
  filename: string;
  /** A background job's id: its usage is recorded once however often the job runs. */
  jobId?: string;
}

export class QuotaLedger {
  constructor(private readonly ds: DataSource) {}

  /**
   * Reserves up to `wanted` rows in ONE statement: the row lock of FOR UPDATE makes concurrent runs queue,
   * so together they can never pass the limit (a negative limit is unlimited). Returns the rows granted,
   * or null when the user no longer exists.
   */
  async reserve(userId: string, wanted: number, monthlyLimit: number): Promise<number | null> {
    const rows = (await this.ds.query(
      `WITH cur AS (
         SELECT id, CASE WHEN ${STALE} THEN 0 ELSE monthly_rows_used END AS used, ${STALE} AS stale
           FROM users WHERE id = $1 FOR UPDATE
       ), grant_ AS (
         SELECT id, used, stale,
                CASE WHEN $3::bigint < 0 THEN $2::bigint
                     ELSE LEAST($2::bigint, GREATEST($3::bigint - used, 0)) END AS granted
           FROM cur
       )
       UPDATE users u
          SET monthly_rows_used = g.used + g.granted,
              last_reset_at = CASE WHEN g.stale THEN now() ELSE u.last_reset_at END
         FROM grant_ g
        WHERE u.id = g.id
      RETURNING g.granted AS granted`,
      [userId, wanted, monthlyLimit],
    )) as [Array<{ granted: string | number }>, number];
    const [list] = rows;
    return list.length === 0 ? null : Number(list[0].granted);
  }

  /** Reserves what a plan may map of a file this month, and says which limit (if any) cut it short. */
  async reserveForFile(userId: string, plan: string, fileRows: number): Promise<Reservation | null> {
    const perFile = rowsAllowedForFile(plan, fileRows);
    const granted = await this.reserve(userId, perFile, limitsOf(plan).maxMonthlyRows);
    if (granted === null) return null;
    const limitType: LimitType = granted < perFile ? 'monthlyQuota' : perFile < fileRows ? 'rows' : null;
    return { granted, perFile, limitType };
  }

  /** Gives back rows a run reserved and could not use (an engine error, a failed job). */
  async refund(userId: string, rows: number, tx: EntityManager | DataSource = this.ds): Promise<void> {
    if (rows <= 0) return;
    await tx.query('UPDATE users SET monthly_rows_used = GREATEST(monthly_rows_used - $2, 0) WHERE id = $1', [
      userId,
      rows,
    ]);
  }

  /**
   * Records a finished run in the usage history and gives back what it reserved but did not use, in one
   * transaction. A job's usage is recorded once (usage_history.job_id is unique): returns false when it
   * already was, and then changes nothing.
   */
  async commit(r: UsageRecord): Promise<boolean> {
    return this.ds.transaction(async (tx) => {
      const teamId = r.teamId ?? r.userId;
      const inserted = (await tx.query(
        `INSERT INTO usage_history (user_id, team_id, rows_processed, file_size_bytes, filename, job_id)
         SELECT (SELECT id FROM users WHERE id = $1), $6, $2, $3, $4, $5
          WHERE EXISTS (SELECT 1 FROM teams WHERE id = $6)
         ON CONFLICT (job_id) DO NOTHING RETURNING id`,
        [r.userId, r.rowsProcessed, r.fileSizeBytes, r.filename.slice(0, 255), r.jobId ?? null, teamId],
      )) as Array<{ id: string }>;
      if (inserted.length === 0) return false;
      await this.refund(teamId, r.reservedRows - r.rowsProcessed, tx);
      return true;
    });
  }

  /** A failed job used nothing: its whole reservation goes back, once. */
  async release(
    jobId: string,
    userId: string,
    reservedRows: number,
    filename: string,
    teamId: string = userId,
  ): Promise<void> {
    await this.commit({ jobId, userId, teamId, reservedRows, rowsProcessed: 0, fileSizeBytes: 0, filename });
  }

  /** Rows used in the current month (0 when the count is from an earlier month). */
  async usedThisMonth(userId: string): Promise<number> {
    const [row] = (await this.ds.query(
      `SELECT CASE WHEN ${STALE} THEN 0 ELSE monthly_rows_used END AS used FROM users WHERE id = $1`,
      [userId],
    )) as Array<{ used: number }>;
    return row ? Number(row.used) : 0;
  }

  /** The monthly reset: a conditional UPDATE, idempotent and safe with several workers. */
  async resetMonth(now: Date = new Date()): Promise<number> {
    const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const result = (await this.ds.query(
      `UPDATE users SET monthly_rows_used = 0, last_reset_at = $1
        WHERE last_reset_at IS NULL OR last_reset_at < $2`,
      [now, monthStart],
    )) as [unknown[], number];
    return result[1];
  }
}
