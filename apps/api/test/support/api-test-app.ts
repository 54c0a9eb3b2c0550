import type { INestApplication } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApiApp } from '../../src/bootstrap';
import { loadApiConfig } from '../../src/config/api.config';
import { sleep } from './poll';

// Shared by the api's e2e specs: boot the real app and sign users up through the real endpoints.

export type Agent = ReturnType<typeof request.agent>;

/** The header the CSRF guard expects on every cookie-authenticated write. */
export const H = { 'X-Requested-With': 'csv-mapper' } as const;

/** The api against this run's Postgres and Redis; many sign-ups per spec, so the per-IP throttle is raised. */
export async function startApp(env: Record<string, string> = {}): Promise<INestApplication> {
  const app = await createApiApp(
    loadApiConfig({
      ...process.env,
      SKIP_REDIS_POLICY_CHECK: '1',
      REGISTRATIONS_PER_IP_PER_HOUR: '10000',
      ...env,
    }),
  );
  await app.init();
  return app;
}

/** Registers a fresh user (optionally on another plan) and returns a cookie-keeping agent and the id. */
export async function signUp(
  app: INestApplication,
  plan?: string,
): Promise<{ agent: Agent; userId: string; username: string }> {
  const agent = request.agent(app.getHttpServer());
  const username = `u_${randomBytes(5).toString('hex')}`;
  const res = await agent
    .post('/api/register')
    .set(H)
    .send({
      username,
      email: `${username}@example.com`,
      password: 'Tr1cky-Mapper!',
      firstName: 'Ana',
      lastName: 'Test',
    });
  if (res.status >= 300) throw new Error(`register failed: ${res.status} ${res.text}`);
  const db = app.get(DataSource);
  const [row] = (await db.query('SELECT id FROM users WHERE username = $1', [username])) as { id: string }[];
  if (plan) await db.query('UPDATE users SET plan = $2 WHERE id = $1', [row.id, plan]);
  return { agent, userId: row.id, username };
}

/** What GET /api/jobs/:id answers, as far as the tests read it without checking. */
export interface JobView {
  id: string;
  state: string;
  resultUrl: string;
  totals: { columns: unknown[]; [field: string]: unknown };
  [field: string]: unknown;
}

/** GET /api/jobs/:id until the job has completed or failed (or about `timeoutMs` passed); its last view. */
export async function waitForJob(agent: Agent, jobId: string, timeoutMs = 60_000): Promise<JobView> {
  const view = () => agent.get(`/api/jobs/${jobId}`).expect(200);
  let last = (await view()).body as JobView;
  const end = Date.now() + timeoutMs;
  while (!['completed', 'failed'].includes(last.state) && Date.now() < end) {
    await sleep(100);
    last = (await view()).body as JobView;
  }
  return last;
}

/**
 * POST /api/process with a body that runs as a background job (answered 202), then the job's last view
 * (waitForJob).
 */
export async function processInBackground(agent: Agent, body: object): Promise<JobView> {
  const queued = await agent.post('/api/process').set(H).send(body).expect(202);
  return waitForJob(agent, queued.body.jobId as string);
}
