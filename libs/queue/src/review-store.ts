import type { Readable } from 'node:stream';
import type { IssueView, ProcessCsvPayload, Warning } from '@csv-mapper/contracts';
import { BlobNotFoundError, type BlobKind, type BlobStore } from './blob-store';

// A run's review session (issue 22), kept in the ephemeral store beside the uploads so it expires and
// moves with them: the problems a run found (`issues-<runId>`, one JSON line each), the edits the user
// made (`patch-<reviewId>`, never a rewrite of the upload) and, for a sync run, the request it ran
// (`review-<reviewId>`), so the same routes can rerun it. A rerun job carries the review id.

/** Problems stored per run (more are counted, not kept). */
export const ISSUES_MAX = 100_000;
/** Edits plus row deletions one patch may hold. */
export const PATCH_MAX = 100_000;

export const issuesIdFor = (runId: string): string => `issues-${runId}`;
export const patchIdFor = (reviewId: string): string => `patch-${reviewId}`;
export const reviewIdFor = (reviewId: string): string => `review-${reviewId}`;

/** The stored patch: edits as [row, template column, value], later ones win; deleted rows. */
export interface PatchDoc {
  edits: [number, string, string][];
  deleted: number[];
}

export interface IssuesInfo {
  total: number;
  byRule: Record<string, number>;
  truncated: boolean;
}

/** What a sync run keeps for its review: the payload a rerun job needs (no maxRows: decided then). */
export type ReviewRecord = Omit<ProcessCsvPayload, 'maxRows'>;

async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of stream) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

async function writeBlob(
  store: BlobStore,
  kind: BlobKind,
  id: string,
  ownerId: string,
  body: Buffer,
  info: Record<string, unknown>,
): Promise<void> {
  const w = store.createWriter(kind, ownerId, `${id}.json`, id);
  try {
    if (body.length > 0) await w.write(body);
    await w.commit(info);
  } catch (err) {
    await w.abort();
    throw err;
  }
}

export function issueOf(w: Warning): IssueView {
  return {
    row: w.row,
    column: w.column,
    ...(w.rule ? { rule: w.rule } : {}),
    value: w.value,
    message: w.reason,
  };
}

/** Stores a run's problems (the first ISSUES_MAX) with its counts by rule. */
export async function saveIssues(
  store: BlobStore,
  runId: string,
  ownerId: string,
  warnings: readonly Warning[],
  info: IssuesInfo,
): Promise<void> {
  const lines = warnings.slice(0, ISSUES_MAX).map((w) => JSON.stringify(issueOf(w)));
  const body = Buffer.from(lines.length > 0 ? `${lines.join('\n')}\n` : '', 'utf8');
  await writeBlob(store, 'issues', issuesIdFor(runId), ownerId, body, { ...info });
}

/** A run's stored problems, or null when none were stored (or they expired). */
export async function loadIssues(
  store: BlobStore,
  runId: string,
  ownerId: string,
): Promise<{ issues: IssueView[]; info: IssuesInfo } | null> {
  try {
    const { meta, stream } = await store.openRead<IssuesInfo>(issuesIdFor(runId), ownerId);
    const text = (await readAll(stream)).toString('utf8');
    const issues =
      text === ''
        ? []
        : text
            .trimEnd()
            .split('\n')
            .map((l) => JSON.parse(l) as IssueView);
    return { issues, info: meta.info };
  } catch (err) {
    if (err instanceof BlobNotFoundError) return null;
    throw err;
  }
}

export async function loadPatch(store: BlobStore, reviewId: string, ownerId: string): Promise<PatchDoc> {
  try {
    const { stream } = await store.openRead(patchIdFor(reviewId), ownerId);
    return JSON.parse((await readAll(stream)).toString('utf8')) as PatchDoc;
  } catch (err) {
    if (err instanceof BlobNotFoundError) return { edits: [], deleted: [] };
    throw err;
  }
}

export async function savePatch(
  store: BlobStore,
  reviewId: string,
  ownerId: string,
  patch: PatchDoc,
): Promise<void> {
  await writeBlob(store, 'patch', patchIdFor(reviewId), ownerId, Buffer.from(JSON.stringify(patch)), {
    edits: patch.edits.length,
    deleted: patch.deleted.length,
  });
}

/** The patch as the engine applies it (later edits of a cell win). */
export function rowPatchOf(doc: PatchDoc): {
  edits: Map<number, Map<string, string>>;
  deleted: Set<number>;
} {
  const edits = new Map<number, Map<string, string>>();
  for (const [row, column, value] of doc.edits) {
    let m = edits.get(row);
    if (!m) edits.set(row, (m = new Map()));
    m.set(column, value);
  }
  return { edits, deleted: new Set(doc.deleted) };
}

export async function saveReview(store: BlobStore, reviewId: string, record: ReviewRecord): Promise<void> {
  await writeBlob(
    store,
    'review',
    reviewIdFor(reviewId),
    // The team's (a record from before teams names only its owner, whose id is the team's).
    record.teamId ?? record.userId,
    Buffer.from(JSON.stringify(record)),
    {},
  );
}

export async function loadReview(
  store: BlobStore,
  reviewId: string,
  ownerId: string,
): Promise<ReviewRecord | null> {
  try {
    const { stream } = await store.openRead(reviewIdFor(reviewId), ownerId);
    return JSON.parse((await readAll(stream)).toString('utf8')) as ReviewRecord;
  } catch (err) {
    if (err instanceof BlobNotFoundError) return null;
    throw err;
  }
}
