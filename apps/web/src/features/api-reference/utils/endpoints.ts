// The part of an OpenAPI 3.x document the documentation page reads (the api generates the document with
// @nestjs/swagger and serves it at /api/docs/openapi.json; its format is the OpenAPI standard's, not ours).

export interface OpenApiOperation {
  summary?: string;
  responses?: Record<string, unknown>;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title?: string; version: string; description?: string };
  paths: Record<string, Record<string, unknown>>;
}

export interface Endpoint {
  method: string;
  path: string;
  summary: string;
  /** The documented statuses, e.g. '200, 400, 401'. */
  statuses: string;
}

/** The operations a path item may hold (OpenAPI 3.1 §4.8.9), in the order the table lists them. */
const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'trace'] as const;

/** One row per operation, paths in the document's order. */
export function endpointsOf(doc: Pick<OpenApiDocument, 'paths'>): Endpoint[] {
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m] && typeof item[m] === 'object').map((m) => {
      const op = item[m] as OpenApiOperation;
      return {
        method: m.toUpperCase(),
        path,
        summary: op.summary ?? '',
        statuses: Object.keys(op.responses ?? {}).join(', '),
      };
    }),
  );
}

/** The document's description as plain text (it is Markdown; the page shows it as a paragraph). */
export function plainDescription(doc: Pick<OpenApiDocument, 'info'>): string {
  return (doc.info.description ?? '').replace(/`/g, '').trim();
}
