import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** Monthly usage reset: a conditional UPDATE, so it is idempotent and safe with several workers. */
@Injectable()
export class QuotaService {
  constructor(private readonly ds: DataSource) {}

  /** Resets every user whose last reset is before the start of the current UTC month. */
  async resetMonthlyUsage(now: Date = new Date()): Promise<number> {
    const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const result: [unknown[], number] = await this.ds.query(
      `UPDATE users SET monthly_rows_used = 0, last_reset_at = $1
        WHERE last_reset_at IS NULL OR last_reset_at < $2`,
      [now, monthStart],
    );
    return result[1];
  }

  /** Expired reset tokens and sessions; blobs and results expire by their Redis TTL. */
  async cleanup(now: Date = new Date()): Promise<{ tokens: number; sessions: number }> {
    const tokens: [unknown[], number] = await this.ds.query(
      'DELETE FROM password_reset_tokens WHERE expires_at < $1',
      [now],
    );
    const sessions: [unknown[], number] = await this.ds.query('DELETE FROM sessions WHERE expire < $1', [
      now,
    ]);
    return { tokens: tokens[1], sessions: sessions[1] };
  }
}
