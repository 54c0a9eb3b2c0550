import type { INestApplication } from '@nestjs/common';
import { PATH_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import { RequestMethod } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import request from 'supertest';
import { startApp } from './support/api-test-app';

// The OpenAPI document is generated from the controllers and the contract DTOs: these tests read it as
// a client would, at /api/docs/openapi.json, and hold it against the routes the running app serves.

interface WebhookOp {
  requestBody: { content: Record<string, { schema: { allOf: Array<Record<string, unknown>> } }> };
  parameters: { name: string }[];
}

/** Routes kept out of the published document on purpose: operator, test-only and provider callbacks. */
const UNPUBLISHED = [
  'GET /api/docs',
  'GET /api/docs/openapi.json',
  'GET /api/metrics',
  'POST /api/billing/webhook',
  'GET /api/billing/simulated/sessions/{id}',
  'POST /api/billing/simulated/sessions/{id}/complete',
  'POST /api/test/simulate-payment-success',
  'POST /api/test/activate-subscription',
  'POST /api/test/reset-subscription',
  'POST /api/test/advance-clock',
];

/** Every route of every controller, as "METHOD /api/path/{param}". */
function controllerRoutes(app: INestApplication): string[] {
  const scanner = new MetadataScanner();
  const routes: string[] = [];
  for (const wrapper of app.get(DiscoveryService).getControllers()) {
    const { instance, metatype } = wrapper;
    if (!instance || !metatype) continue;
    const base = String(Reflect.getMetadata(PATH_METADATA, metatype) ?? '');
    const proto = Object.getPrototypeOf(instance) as object;
    for (const name of scanner.getAllMethodNames(proto)) {
      const handler = (proto as Record<string, unknown>)[name] as object;
      const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (path === undefined || method === undefined) continue;
      const full = ['/api', base, path]
        .map((p) => p.replace(/^\/|\/$/g, ''))
        .filter(Boolean)
        .join('/')
        .replace(/:([A-Za-z]+)/g, '{$1}');
      routes.push(`${RequestMethod[method]} /${full}`);
    }
  }
  return routes;
}

describe('OpenAPI document (e2e)', () => {
  let app: INestApplication;
  let doc: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  beforeAll(async () => {
    app = await startApp();
    doc = (await request(app.getHttpServer()).get('/api/docs/openapi.json').expect(200)).body;
  });
  afterAll(() => app.close());

  it('lists every route a key or a session can call, and only those', () => {
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    const routes = controllerRoutes(app);
    const published = routes.filter((r) => !UNPUBLISHED.includes(r));
    expect(routes.length).toBeGreaterThan(50);
    expect(published.filter((r) => !documented.includes(r))).toEqual([]);
    expect(documented.filter((r) => !published.includes(r))).toEqual([]);
    expect(routes).toEqual(expect.arrayContaining(UNPUBLISHED));
    console.log(`OpenAPI: ${documented.length} operations documented of ${routes.length} controller routes`);
  });

  it('describes bodies, answers, errors and the bearer scheme from the contract', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.apiKey).toEqual({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'csvm_…',
    });
    expect(doc.security).toEqual([{ apiKey: [] }]);
    expect(doc.paths['/api/plans'].get.security).toEqual([]);
    expect(doc.paths['/api/register'].post.security).toEqual([]);
    expect(doc.components.schemas.ErrorBody.required).toEqual(['error', 'code']);
    expect(doc.components.schemas.ErrorBody.properties.code.enum).toContain('IDEMPOTENCY_KEY_REUSED');

    const processOp = doc.paths['/api/process'].post;
    expect(processOp.summary).toMatch(/^Apply a mapping/);
    expect(processOp.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ProcessRequest',
    });
    expect(Object.keys(processOp.responses)).toEqual(expect.arrayContaining(['200', '202', '400', '422']));
    expect(processOp.responses['400'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ErrorBody',
    });
    expect(processOp.parameters).toContainEqual(
      expect.objectContaining({
        name: 'Idempotency-Key',
        in: 'header',
        schema: { type: 'string', maxLength: 255 },
      }),
    );
    const req = doc.components.schemas.ProcessRequest;
    expect(req.properties.mappingId).toMatchObject({ type: 'string' });
    // Descriptions and examples come from the DTOs' JSDoc.
    expect(req.properties.dataFileId).toMatchObject({
      description: "The uploaded data file's id.",
      example: '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
    });
    expect(doc.components.schemas.MappingPair.properties.templateColumn.example).toBe('Variant Price');
    expect(req.properties.mappings).toMatchObject({
      type: 'array',
      items: { $ref: '#/components/schemas/MappingPair' },
    });
    expect(doc.components.schemas.AmountTransform.properties.negative.enum).toEqual(['minus', 'parentheses']);
    // a warning's row 0 is a note on a whole column (e.g. an ambiguous date order), said so for API users
    expect(doc.components.schemas.Warning.properties.row.description).toContain(
      '0 for a note on how a whole column was read',
    );

    const upload = doc.paths['/api/upload/data'].post;
    expect(upload.requestBody.content['multipart/form-data'].schema.properties.file).toMatchObject({
      type: 'string',
      format: 'binary',
    });
    expect(Object.keys(upload.responses)).toContain('413');
    expect(
      doc.paths['/api/webhooks/{id}/deliveries'].get.responses['200'].content['application/json'].schema,
    ).toEqual({ type: 'array', items: { $ref: '#/components/schemas/WebhookDeliveryView' } });
    expect(doc.components.schemas.WebhookEndpointView.properties.events.items.enum).toEqual([
      'job.completed',
      'job.failed',
      'job.cancelled',
      'batch.completed',
    ]);
  });

  it('describes the webhook events and their signed payload (OpenAPI 3.1 webhooks)', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([
      'batch.completed',
      'job.cancelled',
      'job.completed',
      'job.failed',
    ]);
    for (const [type, op] of Object.entries(doc.webhooks as Record<string, { post: WebhookOp }>)) {
      const schema = op.post.requestBody.content['application/json'].schema;
      expect(schema.allOf[0]).toEqual({ $ref: '#/components/schemas/WebhookEventBody' });
      expect(schema.allOf[1]).toMatchObject({
        properties: {
          type: { const: type },
          data: {
            $ref: `#/components/schemas/${type === 'batch.completed' ? 'BatchEventData' : 'JobEventData'}`,
          },
        },
      });
      expect(op.post.parameters.map((p) => p.name)).toEqual([
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ]);
    }
    const event = doc.components.schemas.WebhookEventBody;
    expect(event.required).toEqual(['type', 'timestamp', 'data']);
    expect(event.properties.type.enum).toEqual([
      'job.completed',
      'job.failed',
      'job.cancelled',
      'batch.completed',
      'test',
    ]);
    expect(Object.keys(doc.components.schemas.BatchEventData.properties)).toEqual([
      'batchId',
      'state',
      'files',
      'completed',
      'failed',
      'cancelled',
      'rowsWritten',
      'jobs',
      'resultZipUrl',
      'finishedAt',
    ]);
    const data = doc.components.schemas.JobEventData;
    expect(Object.keys(data.properties)).toEqual([
      'jobId',
      'state',
      'batchId',
      'mappingId',
      'mappingName',
      'dataFilename',
      'templateFilename',
      'rowsRead',
      'rowsWritten',
      'warningCount',
      'controlTotals',
      'totals',
      'resultUrl',
      'resultExpiresAt',
      'finishedAt',
      'error',
    ]);
    // The example is a complete payload: every data field the schema names is in it.
    const [example] = event.examples;
    expect(example.type).toBe('job.completed');
    expect(Object.keys(example.data)).toEqual(Object.keys(data.properties));
  });

  it('renders a page listing the endpoints, without a signed-in user', async () => {
    const res = await request(app.getHttpServer()).get('/api/docs').expect(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toContain('<code>/api/process</code>');
    expect(res.text).toContain('/api/docs/openapi.json');
  });
});
