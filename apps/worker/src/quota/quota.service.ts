import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { historyRetentionDays, RunHistoryStore } from '@csv-mapper/db';

/** How long the webhook delivery log keeps an attempt. */
export const WEBHOOK_LOG_DAYS = 30;

/** Housekeeping in Postgres: what expires (tokens, sessions, old webhook attempts). */
@Injectable()
export class QuotaService {
  constructor(private readonly ds: DataSource) {}

  /** Expired reset tokens and sessions, webhook attempts past 30 days; blobs expire by their Redis TTL. */
  async cleanup(
    now: Date = new Date(),
  ): Promise<{ tokens: number; sessions: number; deliveries: number; historyRuns: number }> {
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
    // Saved mappings' run history past HISTORY_RETENTION_DAYS (runs and their fingerprints).
    const history = await new RunHistoryStore(this.ds, historyRetentionDays()).prune();
    return { tokens: tokens[1], sessions: sessions[1], deliveries: deliveries[1], historyRuns: history.runs };
  }
}
