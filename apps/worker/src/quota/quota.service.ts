import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** How long the webhook delivery log keeps an attempt. */
export const WEBHOOK_LOG_DAYS = 30;

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

  /** Expired reset tokens and sessions, webhook attempts past 30 days; blobs expire by their Redis TTL. */
  async cleanup(now: Date = new Date()): Promise<{ tokens: number; sessions: number; deliveries: number }> {
    const tokens: [unknown[], number] = await this.ds.query(
      'DELETE FROM password_reset_tokens WHERE expires_at < $1',
      [now],
    );
    const sessions: [unknown[], number] = await this.ds.query('DELETE FROM sessions WHERE expire < $1', [
      now,
    ]);
    const deliveries: [unknown[], number] = await this.ds.query(
      `DELETE FROM webhook_deliveries WHERE created_at < $1::timestamptz - interval '${WEBHOOK_LOG_DAYS} days'`,
      [now],
    );
    return { tokens: tokens[1], sessions: sessions[1], deliveries: deliveries[1] };
  }
}
