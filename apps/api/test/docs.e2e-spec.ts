import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { startApp } from './support/api-test-app';

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

  it('renders a page listing the endpoints, without a signed-in user', async () => {
    const res = await request(app.getHttpServer()).get('/api/docs').expect(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toContain('<code>/api/process</code>');
    expect(res.text).toContain('/api/docs/openapi.json');
  });
});
