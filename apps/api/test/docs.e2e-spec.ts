import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { startApp } from './support/api-test-app';

interface WebhookOp {
  requestBody: { content: Record<string, { schema: { allOf: unknown[] } }> };
  parameters: { name: string }[];
}

describe('OpenAPI document (e2e)', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(() => app.close());

  it('describes every published endpoint with the bearer scheme and the error shape', async () => {
    const res = await request(app.getHttpServer()).get('/api/docs/openapi.json').expect(200);
    expect(res.body.openapi).toMatch(/^3\./);
    for (const path of [
      '/api/upload/template',
      '/api/upload/data',
      '/api/mappings/{id}',
      '/api/process',
      '/api/jobs/{id}',
      '/api/jobs/{id}/result',
      '/api/plans',
      '/api/templates',
      '/api/process/preview',
      '/api/jobs',
      '/api/mappings',
      '/api/webhooks/{id}/rotate-secret',
      '/api/webhooks/{id}/deliveries',
      '/api/webhooks/{id}/deliveries/{deliveryId}/resend',
    ]) {
      expect(Object.keys(res.body.paths)).toContain(path);
    }
    expect(res.body.components.securitySchemes.apiKey).toEqual({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'csvm_…',
    });
    expect(res.body.paths['/api/plans'].get.security).toEqual([]);
    expect(res.body.components.schemas.Error.required).toEqual(['error', 'code']);
    expect(Object.keys(res.body.paths['/api/process'].post.responses)).toEqual(
      expect.arrayContaining(['200', '202']),
    );
  });

  it('describes the webhook events, their signed payload and Idempotency-Key on /api/process', async () => {
    const res = await request(app.getHttpServer()).get('/api/docs/openapi.json').expect(200);
    const doc = res.body;
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.webhooks).sort()).toEqual(['job.cancelled', 'job.completed', 'job.failed']);
    for (const [type, op] of Object.entries(doc.webhooks as Record<string, { post: WebhookOp }>)) {
      const schema = op.post.requestBody.content['application/json'].schema;
      expect(schema.allOf).toEqual([
        { $ref: '#/components/schemas/WebhookEvent' },
        { type: 'object', properties: { type: { const: type } } },
      ]);
      expect(op.post.parameters.map((p: { name: string }) => p.name)).toEqual([
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ]);
    }

    const event = doc.components.schemas.WebhookEvent;
    expect(event.required).toEqual(['type', 'timestamp', 'data']);
    expect(event.properties.type.enum).toEqual(['job.completed', 'job.failed', 'job.cancelled', 'test']);
    expect(Object.keys(event.properties.data.properties)).toEqual([
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
      'resultUrl',
      'resultExpiresAt',
      'finishedAt',
      'error',
    ]);
    // The example is a complete payload: every data field the schema names is in it.
    const [example] = event.examples;
    expect(example.type).toBe('job.completed');
    expect(Object.keys(example.data)).toEqual(Object.keys(event.properties.data.properties));

    expect(doc.components.schemas.WebhookEndpoint.properties.events.items.enum).toEqual([
      'job.completed',
      'job.failed',
      'job.cancelled',
    ]);
    const processOp = doc.paths['/api/process'].post;
    expect(processOp.parameters).toContainEqual(
      expect.objectContaining({
        name: 'Idempotency-Key',
        in: 'header',
        schema: { type: 'string', maxLength: 255 },
      }),
    );
    expect(Object.keys(processOp.responses)).toContain('422');
    expect(doc.components.schemas.ProcessRequest.properties.mappingId).toMatchObject({ type: 'string' });
  });

  it('renders a page listing the endpoints, without a signed-in user', async () => {
    const res = await request(app.getHttpServer()).get('/api/docs').expect(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toContain('<code>/api/process</code>');
    expect(res.text).toContain('/api/docs/openapi.json');
  });
});
