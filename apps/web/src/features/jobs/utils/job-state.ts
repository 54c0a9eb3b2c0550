import type { JobView } from '@csv-mapper/contracts';

/** Queued or running: its progress still changes, so the list keeps polling. */
export function isJobRunning(job: Pick<JobView, 'state'>): boolean {
  return job.state === 'queued' || job.state === 'active';
}
