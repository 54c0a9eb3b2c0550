import type { ControlTotal, MappingPair, ResolvedOutputOptions, RunTotals, Warning } from './mapping';
import type { Corrections, TemplateRules } from './rules';

// What travels through the queues and out to webhook receivers: job payloads (ids, never file contents),
// progress, results, and the events of the job lifecycle (documented in the OpenAPI document's webhooks).

export interface ProcessCsvPayload {
  /** Who ran it (usage history). */
  userId: string;
  /** The team that owns the job, its files, quota and webhooks; absent on jobs queued before teams, whose
   * owner's id is their team's id (see jobTeamOf). */
  teamId?: string;
  dataFileId: string;
  templateFileId: string;
  /** The template's file name (a built-in template's name for a virtual one); for the webhook payload. */
  templateFilename?: string;
  /** The saved mapping the request named, if any; for the webhook payload. */
  mappingId?: string | null;
  mappingName?: string | null;
  templateHeaders: string[];
  /** Mapping pairs (ARCHITECTURE §4). */
  mappings: MappingPair[];
  /** Rows reserved against the monthly quota for this job. */
  maxRows: number;
  totalRows: number;
  dataFilename: string;
  fileSizeBytes: number;
  options?: Record<string, unknown>;
  /** The output settings resolved by the api (after "match the template"). */
  output?: ResolvedOutputOptions;
  /** Why maxRows is below totalRows, if it is (for the control totals' skipped rows). */
  limitType?: 'rowLimit' | 'monthlyQuota' | null;
  /** Rules per template column (the built-in template's merged with the request's). */
  templateRules?: TemplateRules;
  /** The review session this run belongs to (its id is the first run's job id or a sync run's reviewId). */
  reviewId?: string;
  /** A corrected run: apply the review session's patch while streaming. */
  applyPatch?: boolean;
  /**
   * A saved mapping's run: the worker records it (mapping_runs), checks every row against the mapping's
   * earlier fingerprints and handles those found as `duplicates` says.
   */
  history?: {
    source: 'browser' | 'api' | 'bulk' | 'cli';
    duplicates: 'skip' | 'flag' | 'keep';
    keyColumns: string[] | null;
    /**
     * The run a corrected rerun (review) replaces: its rows do not count as exported before, and its
     * fingerprints give way to the rerun's. Absent on a rerun of a background job: the run of job `reviewId`.
     */
    supersedes?: string;
  };
  /** Set when the job is one file of a bulk upload (POST /api/batches). */
  batchId?: string | null;
  /**
   * How the data file is read before the CSV reader sees it: a workbook's sheet (and its unpack caps).
   * Absent: CSV.
   */
  source?: {
    format?: 'csv' | 'xlsx';
    sheet?: string;
    limits?: { maxTotalBytes?: number; maxEntries?: number; maxEntryBytes?: number };
  };
}

/** Job events an endpoint can subscribe to; `test` is sent only on request. */
export const WEBHOOK_EVENTS = ['job.completed', 'job.failed', 'job.cancelled', 'batch.completed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** A job event's `data` (documented in the OpenAPI document's `webhooks` and on /documentation). */
export class JobEventData {
  jobId: string;
  state: 'completed' | 'failed' | 'cancelled';
  /** The bulk upload the job belongs to; null for single jobs. */
  batchId: string | null;
  mappingId: string | null;
  mappingName: string | null;
  dataFilename: string;
  templateFilename: string | null;
  rowsRead: number;
  rowsWritten: number;
  warningCount: number;
  controlTotals: ControlTotal[];
  /** Completed jobs: rows read, written and skipped with reasons, sums per amount/number column. */
  totals: RunTotals | null;
  /** Absolute download address of the result (completed jobs only), valid until resultExpiresAt. */
  resultUrl: string | null;
  resultExpiresAt: string | null;
  finishedAt: string;
  error: JobError | null;
}

/** Why a job failed: a code to switch on and a message for people. */
export class JobError {
  code: string;
  message: string;
}

/** Standard Webhooks body: `{ type, timestamp, data }`. */
export class WebhookEventBody {
  type: WebhookEventType | 'test';
  /** When the event happened (ISO 8601); the signed `webhook-timestamp` header is the attempt's time. */
  timestamp: string;
  data: JobEventData | BatchEventData | TestEventData;
}

/** One file's outcome in `batch.completed`. */
export class BatchEventFile {
  jobId: string;
  dataFilename: string;
  state: 'completed' | 'failed' | 'cancelled';
  rowsWritten: number;
  warningCount: number;
}

/** `batch.completed`: every file of a bulk upload has finished (completed, failed or cancelled). */
export class BatchEventData {
  batchId: string;
  state: 'completed';
  files: number;
  completed: number;
  failed: number;
  cancelled: number;
  /** Rows written over every completed file. */
  rowsWritten: number;
  jobs: BatchEventFile[];
  /** Absolute address of the ZIP of every completed file's result (needs the owner's session or API key). */
  resultZipUrl: string | null;
  finishedAt: string;
}

/** The `test` event's data ("Send test event"). */
export class TestEventData {
  message: string;
}

export interface WebhookDeliveryPayload {
  endpointId: string;
  event: WebhookEventType | 'test';
  /** Standard Webhooks message id: stable across retries and resends. */
  messageId: string;
  timestamp: number;
  body: WebhookEventBody;
  /** A resend continues the message's attempt count in the delivery log. */
  attemptOffset?: number;
}

/** Fans one event out to the owner's subscribed endpoints (for events raised outside the worker). */
export interface WebhookDispatchPayload {
  /** The team whose endpoints receive the event (named userId before teams: a team's id is its owner's). */
  userId: string;
  event: WebhookEventType;
  subjectId: string;
  data: JobEventData | BatchEventData;
}

/** Applies one stored payment-provider event (billing_events); the job id is derived from the event id. */
export interface BillingEventPayload {
  eventId: string;
}

export interface JobProgress {
  percent: number;
  rowsDone: number;
  warnings: number;
}

/** One warning sample: row, column, the cell value and why it could not be read. */
export type JobWarning = Warning;

export interface ProcessCsvResult {
  rowsProcessed: number;
  totalRows: number;
  truncated: boolean;
  warningsCount: number;
  /**
   * Not in the job record (it would keep cell values in Redis for a day): the first 100 warnings are in
   * the result blob's info (`warnings`), which expires with the result.
   */
  warnings?: JobWarning[];
  controlTotals: ControlTotal[];
  totals?: RunTotals;
  output?: ResolvedOutputOptions;
  /** Warnings by rule (`other` for warnings without a rule). */
  warningsByRule?: Record<string, number>;
  corrections?: Corrections;
  resultId: string;
  filename: string;
  bytes: number;
}

export interface QuotaResetResult {
  usersReset: number;
}

/** The team a job belongs to (jobs queued before teams carry only their owner's id, which is the team's). */
export function jobTeamOf(p: Pick<ProcessCsvPayload, 'userId' | 'teamId'>): string {
  return p.teamId ?? p.userId;
}
