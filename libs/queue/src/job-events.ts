import type { JobEventData, ProcessCsvPayload } from './queues';

/** The fields every job event carries, from the job's payload; the outcome's own fields are the caller's. */
export function jobEventBase(
  jobId: string,
  p: ProcessCsvPayload,
  state: JobEventData['state'],
): JobEventData {
  return {
    jobId,
    state,
    batchId: p.batchId ?? null,
    mappingId: p.mappingId ?? null,
    mappingName: p.mappingName ?? null,
    dataFilename: p.dataFilename,
    templateFilename: p.templateFilename ?? null,
    rowsRead: 0,
    rowsWritten: 0,
    warningCount: 0,
    controlTotals: [],
    resultUrl: null,
    resultExpiresAt: null,
    finishedAt: new Date().toISOString(),
    error: null,
  };
}
