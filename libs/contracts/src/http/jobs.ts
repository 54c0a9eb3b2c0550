import type { ControlTotal, ResolvedOutputOptions, RunTotals, Warning } from '../mapping';

// GET /api/jobs, GET /api/jobs/:id and POST /api/jobs/:id/cancel: a background job as its owner sees it.

export type JobState = 'queued' | 'active' | 'completed' | 'failed' | 'cancelled';

export class JobView {
  id: string;
  state: JobState;
  /** 0–100. */
  progress: number;
  rowsProcessed: number;
  totalRows: number;
  warnings: number;
  /** Finished jobs only: the first warnings (gone, like the result, after its TTL). */
  warningSamples?: Warning[];
  controlTotals?: ControlTotal[];
  /** Finished jobs only: rows read, written and skipped with reasons, sums per amount/number column. */
  totals?: RunTotals;
  /** The output settings the job used (after "match the template"). */
  output?: ResolvedOutputOptions;
  filename: string;
  error: string | null;
  /** Completed jobs only: where the owner downloads the result. */
  resultUrl: string | null;
  createdAt: string;
  finishedAt: string | null;
}
