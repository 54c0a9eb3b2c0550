// Queue names, typed job payloads and progress shapes: the contract between the api (producer)
// and the worker (the only place that creates BullMQ Workers). Payloads carry ids, never file contents.

export const QUEUES = {
  csvJobs: 'csv-jobs',
  webhooks: 'webhooks',
  maintenance: 'maintenance',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export interface ProcessCsvPayload {
  userId: string;
  dataFileId: string;
  templateFileId: string;
  templateHeaders: string[];
  /** Mapping pairs (ARCHITECTURE §4); JSON-safe. */
  mappings: Array<{ templateColumn: string; dataColumn: string; transform?: Record<string, unknown> }>;
  /** Rows reserved against the monthly quota for this job. */
  maxRows: number;
  totalRows: number;
  dataFilename: string;
  fileSizeBytes: number;
  options?: Record<string, unknown>;
}

export interface WebhookDeliveryPayload {
  endpointId: string;
  event: 'job.completed' | 'job.failed' | 'test';
  /** Standard Webhooks message id: stable across retries. */
  messageId: string;
  timestamp: number;
  body: Record<string, unknown>;
}

export type MaintenancePayload = Record<string, never>;

/** Every job name per queue with its payload type. */
export interface JobPayloads {
  'csv-jobs': { 'process-csv': ProcessCsvPayload };
  webhooks: { deliver: WebhookDeliveryPayload };
  maintenance: { 'monthly-quota-reset': MaintenancePayload; cleanup: MaintenancePayload };
}

export type JobNameOf<Q extends QueueName> = keyof JobPayloads[Q] & string;
export type PayloadOf<Q extends QueueName, N extends JobNameOf<Q>> = JobPayloads[Q][N];

export interface JobProgress {
  percent: number;
  rowsDone: number;
  warnings: number;
}

/** One warning sample: row, column, the cell value and why it could not be read. */
export interface JobWarning {
  row: number;
  column: string;
  value: string;
  reason: string;
}

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
  controlTotals: unknown[];
  resultId: string;
  filename: string;
  bytes: number;
}

export interface QuotaResetResult {
  usersReset: number;
}
