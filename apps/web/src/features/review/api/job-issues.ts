import type { IssuesPage as IssuesAnswer, PatchCellsResponse, RerunResponse } from '@csv-mapper/contracts';
import { apiJson } from '../../../lib/api-client';
import type { IssueLike } from '../utils/review-model';

// The jobs API behind the review grid for background runs (issue 22): problems paged as warnings, edits
// stored as a patch beside the upload, and a corrected re-run.

/** One page of `GET /api/jobs/:id/issues`. */
export interface IssuesPage {
  issues: IssueLike[];
  nextCursor: string | null;
  /** Problems matching the filter. */
  total?: number;
}

/** Problems per request: the api's largest page, so scrolling needs few round trips. */
export const ISSUES_PAGE = 500;

export interface IssuesQuery {
  rule?: string;
  column?: string;
  cursor?: string | null;
}

export async function getJobIssues(jobId: string, q: IssuesQuery): Promise<IssuesPage> {
  const params = new URLSearchParams({ limit: String(ISSUES_PAGE) });
  if (q.rule) params.set('rule', q.rule);
  if (q.column) params.set('column', q.column);
  if (q.cursor) params.set('cursor', q.cursor);
  const query = params.toString();
  return apiJson<IssuesAnswer>('GET', `/api/jobs/${encodeURIComponent(jobId)}/issues?${query}`);
}

export interface CellPatch {
  edits: { row: number; column: string; value: string }[];
  deleteRows: number[];
}

/** `PATCH /api/jobs/:id/cells`: stores edits and row deletions for the next run. */
export function patchJobCells(jobId: string, patch: CellPatch): Promise<PatchCellsResponse> {
  return apiJson<PatchCellsResponse>('PATCH', `/api/jobs/${encodeURIComponent(jobId)}/cells`, patch);
}

/** `POST /api/jobs/:id/rerun`: 202 with the corrected run's job id. */
export function rerunJob(jobId: string): Promise<RerunResponse> {
  return apiJson<RerunResponse>('POST', `/api/jobs/${encodeURIComponent(jobId)}/rerun`);
}
