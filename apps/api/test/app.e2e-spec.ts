import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { createApiApp } from '../src/bootstrap';
import { loadApiConfig } from '../src/config/api.config';
import { startAppServing } from './support/web-dist';

// The api's outer shell against the real Postgres and Redis: health, error shape, SPA fallback.
describe('api shell (e2e)', () => {
  let app: INestApplication;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ app, close } = await startAppServing({
      'index.html': '<!doctype html><title>CSV Mapper</title><div id="root"></div>',
      'assets/app.js': 'console.log(1)',
    }));
  });
  afterAll(() => close());

  it('reports both dependencies up on /api/health', async () => {
    const res = await request(app.getHttpServer()).get('/api/health').expect(200);
    expect(res.body.status).toBe('ok');
    expect(res.body.details).toMatchObject({ database: { status: 'up' }, redis: { status: 'up' } });
  });

  it('answers malformed JSON with a 400 in the standard error shape', async () => {
    const res = await request(app.getHttpServer())
      .post('/api/health')
      .set('Content-Type', 'application/json')
      .send('{"broken": ')
      .expect(400);
    expect(res.body).toEqual({ error: 'The request body is not valid JSON.', code: 'INVALID_JSON' });
  });

  it('answers an unknown /api route with a JSON 404, never the SPA', async () => {
    const res = await request(app.getHttpServer()).get('/api/does-not-exist?x=1').expect(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body).toEqual({ error: 'No API route matches GET /api/does-not-exist.', code: 'NOT_FOUND' });
  });

  it('answers a wrong method on a known route with the error shape', async () => {
    const res = await request(app.getHttpServer()).delete('/api/health');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
  });

  it('serves index.html for client-side routes (SPA fallback)', async () => {
    for (const path of ['/', '/dashboard', '/csv-mapper?loadMapping=abc', '/some/unknown/page']) {
      const res = await request(app.getHttpServer()).get(path).expect(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.text).toContain('<div id="root"></div>');
    }
  });

  it('serves built assets with long-lived caching and no X-Powered-By', async () => {
    const res = await request(app.getHttpServer()).get('/assets/app.js').expect(200);
    expect(res.headers['cache-control']).toContain('immutable');
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
  });
});

describe('api health when Redis is down', () => {
  let app: INestApplication;
  beforeAll(async () => {
    // Port 1 on loopback: nothing listens, so Redis calls fail at once.
    app = await createApiApp(loadApiConfig({ ...process.env, REDIS_URL: 'redis://127.0.0.1:1' }));
    await app.init();
  });
  afterAll(() => app.close());

  it('answers 503 quickly and names the dependency', async () => {
    const started = Date.now();
    const res = await request(app.getHttpServer()).get('/api/health').expect(503);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(res.body.code).toBe('SERVICE_UNAVAILABLE');
    expect(res.body.details.redis.status).toBe('down');
    expect(res.body.details.database.status).toBe('up');
  });
});
