import type {
  BillingEventPayload,
  ProcessCsvPayload,
  WebhookDeliveryPayload,
  WebhookDispatchPayload,
} from '@csv-mapper/contracts';

// Queue names and which payload each job name carries (the payload shapes are the contract's).

export const QUEUES = {
  csvJobs: 'csv-jobs',
  webhooks: 'webhooks',
  maintenance: 'maintenance',
  billing: 'billing',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export type {
  BillingEventPayload,
  ProcessCsvPayload,
  WebhookDeliveryPayload,
  WebhookDispatchPayload,
  JobProgress,
  JobWarning,
  ProcessCsvResult,
  QuotaResetResult,
  JobEventData,
  BatchEventData,
  BatchEventFile,
  WebhookEventBody,
  WebhookEventType,
} from '@csv-mapper/contracts';
export { WEBHOOK_EVENTS } from '@csv-mapper/contracts';

export type MaintenancePayload = Record<string, never>;

/**
 * A csv job that failed for good, to be finished after the fact (refund, `job.failed`, batch bookkeeping):
 * its own job, so a database that is down when the csv job fails only delays these steps.
 */
export interface JobFailedPayload {
  jobId: string;
  cancelled: boolean;
  error: { code: string; message: string } | null;
}

/** Every job name per queue with its payload type. */
export interface JobPayloads {
  'csv-jobs': { 'process-csv': ProcessCsvPayload; 'job-failed': JobFailedPayload };
  webhooks: { deliver: WebhookDeliveryPayload; dispatch: WebhookDispatchPayload };
  maintenance: {
    'monthly-quota-reset': MaintenancePayload;
    cleanup: MaintenancePayload;
    'billing-reconcile': MaintenancePayload;
  };
  billing: { 'apply-event': BillingEventPayload };
}

export type JobNameOf<Q extends QueueName> = keyof JobPayloads[Q] & string;
export type PayloadOf<Q extends QueueName, N extends JobNameOf<Q>> = JobPayloads[Q][N];
