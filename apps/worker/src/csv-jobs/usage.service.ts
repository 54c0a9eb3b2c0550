import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/**
 * Records a job's usage exactly once, even when the job runs twice: the usage row is keyed by job id
 * (unique), and the monthly counter is corrected in the same transaction only when that row is new.
 * The api reserved `reservedRows` against the quota when it queued the job; unused rows go back.
 */
@Injectable()
export class UsageService {
  constructor(private readonly ds: DataSource) {}

  async recordJobUsage(input: {
    jobId: string;
    userId: string;
    rowsProcessed: number;
    reservedRows: number;
    fileSizeBytes: number;
    filename: string;
  }): Promise<boolean> {
    return this.ds.transaction(async (tx) => {
      const inserted: Array<{ id: string }> = await tx.query(
        `INSERT INTO usage_history (user_id, rows_processed, file_size_bytes, filename, job_id)
         SELECT $1, $2, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM users WHERE id = $1)
         ON CONFLICT (job_id) DO NOTHING RETURNING id`,
        [input.userId, input.rowsProcessed, input.fileSizeBytes, input.filename.slice(0, 255), input.jobId],
      );
      if (inserted.length === 0) return false;
      const unused = input.reservedRows - input.rowsProcessed;
      if (unused !== 0) {
        await tx.query(
          `UPDATE users SET monthly_rows_used = GREATEST(0, monthly_rows_used - $2) WHERE id = $1`,
          [input.userId, unused],
        );
      }
      return true;
    });
  }

  /** A failed job used nothing: give its whole reservation back, once. */
  async releaseReservation(
    jobId: string,
    userId: string,
    reservedRows: number,
    filename: string,
  ): Promise<void> {
    await this.recordJobUsage({ jobId, userId, rowsProcessed: 0, reservedRows, fileSizeBytes: 0, filename });
  }
}
