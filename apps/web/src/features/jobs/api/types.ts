/** A background job as GET /api/jobs and GET /api/jobs/:id describe it. */
export interface JobView {
  id: string;
  state: 'queued' | 'active' | 'completed' | 'failed' | 'cancelled';
  progress: number;
  rowsProcessed: number;
  totalRows: number;
  warnings: number;
  filename: string;
  error: string | null;
  resultUrl: string | null;
  createdAt: string;
  finishedAt: string | null;
}

export function isJobRunning(job: Pick<JobView, 'state'>): boolean {
  return job.state === 'queued' || job.state === 'active';
}
