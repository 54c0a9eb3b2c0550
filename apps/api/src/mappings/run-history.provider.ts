import type { Provider } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { historyRetentionDays, RunHistoryStore } from '@csv-mapper/db';

/** Run history of saved mappings, kept HISTORY_RETENTION_DAYS (default 396, 13 months). */
export const RUN_HISTORY_PROVIDER: Provider = {
  provide: RunHistoryStore,
  inject: [DataSource],
  useFactory: (ds: DataSource) => new RunHistoryStore(ds, historyRetentionDays()),
};
