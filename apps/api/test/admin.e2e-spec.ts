import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { createApiApp } from '../src/bootstrap';
import { loadApiConfig } from '../src/config/api.config';

const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;

describe('operator tools', () => {
  describe('with operator credentials configured', () => {
    let app: INestApplication;
    beforeAll(async () => {
      app = await createApiApp(
        loadApiConfig({ ...process.env, OPERATOR_USER: 'ops', OPERATOR_PASSWORD: 'correct-horse-battery' }),
      );
      await app.init();
    });
    afterAll(() => app.close());

    it('refuses the queue board without credentials (401) and with wrong ones', async () => {
      await request(app.getHttpServer()).get('/admin/queues').expect(401);
      await request(app.getHttpServer())
        .get('/admin/queues')
        .set('Authorization', basic('ops', 'wrong-password!'))
        .expect(401);
    });

    it('serves the queue board and its api to the operator', async () => {
      const page = await request(app.getHttpServer())
        .get('/admin/queues')
        .set('Authorization', basic('ops', 'correct-horse-battery'));
      expect(page.status).toBe(200);
      expect(page.text).toContain('<div id="root"');
      const queues = await request(app.getHttpServer())
        .get('/admin/queues/api/queues')
        .set('Authorization', basic('ops', 'correct-horse-battery'))
        .expect(200);
      expect(queues.body.queues.map((q: { name: string }) => q.name).sort()).toEqual([
        'billing',
        'csv-jobs',
        'maintenance',
        'webhooks',
      ]);
    });

    it('serves Prometheus metrics with queue depths and HTTP latency to the operator only', async () => {
      await request(app.getHttpServer()).get('/api/metrics').expect(401);
      await request(app.getHttpServer()).get('/api/health');
      const res = await request(app.getHttpServer())
        .get('/api/metrics')
        .set('Authorization', basic('ops', 'correct-horse-battery'))
        .expect(200);
      expect(res.headers['content-type']).toMatch(/text\/plain/);
      expect(res.text).toMatch(/queue_jobs\{queue="csv-jobs",state="waiting"\} \d+/);
      expect(res.text).toContain('http_request_duration_seconds_bucket');
    });
  });

  describe('without operator credentials', () => {
    let app: INestApplication;
    beforeAll(async () => {
      const env = { ...process.env };
      delete env.OPERATOR_USER;
      delete env.OPERATOR_PASSWORD;
      app = await createApiApp(loadApiConfig(env));
      await app.init();
    });
    afterAll(() => app.close());

    it('answers 404 for the board and the metrics', async () => {
      await request(app.getHttpServer()).get('/admin/queues').expect(404);
      await request(app.getHttpServer()).get('/api/metrics').expect(404);
    });
  });
});
