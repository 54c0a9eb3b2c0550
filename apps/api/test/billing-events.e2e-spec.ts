import type { INestApplication, INestApplicationContext, LoggerService } from '@nestjs/common';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { PlanState, type ProviderSubscription, type SubscriptionSource } from '@csv-mapper/billing';
import { QUEUES } from '@csv-mapper/queue';
import { SUBSCRIPTION_SOURCE } from '../../worker/src/billing/billing.providers';
import { BILLING_PROVIDER } from '../src/billing/billing-provider';
import type { SimulatedBillingProvider } from '../src/billing/simulated-billing.provider';
import { H, signUp, startApp, type Agent } from './support/api-test-app';
import { startWorker } from '../../worker/test/support/start-worker';
import { until } from './support/poll';

// Provider events through the real route into the queue and the worker (in-process), with the simulated
// provider: the answer comes before processing, a failed first read is retried and applied, a duplicate is
// applied once, and the daily reconciliation repairs a user whose row drifted from the provider — and says so.

describe('billing events applied by the worker (e2e)', () => {
  let app: INestApplication;
  let worker: INestApplicationContext;
  let db: DataSource;
  let sim: SimulatedBillingProvider;
  let source: SubscriptionSource;
  const logs: string[] = [];

  beforeAll(async () => {
    app = await startApp();
    const capture: LoggerService = {
      log: (...a: unknown[]) => logs.push(`log ${JSON.stringify(a)}`),
      warn: (...a: unknown[]) => logs.push(`warn ${JSON.stringify(a)}`),
      error: (...a: unknown[]) => logs.push(`error ${JSON.stringify(a)}`),
    };
    worker = await startWorker({}, capture);
    db = app.get(DataSource);
    sim = app.get(BILLING_PROVIDER) as SimulatedBillingProvider;
    source = worker.get(SUBSCRIPTION_SOURCE);
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await worker?.close();
    await app?.close();
  });

  const post = (body: string) =>
    request(app.getHttpServer())
      .post('/api/billing/webhook')
      .set('content-type', 'application/json')
      .set('stripe-signature', sim.sign(body))
      .send(body);
  const event = (id: string, subId: string) =>
    JSON.stringify({
      id,
      object: 'event',
      type: 'customer.subscription.updated',
      data: { object: { id: subId, object: 'subscription' } },
    });
  const profile = async (agent: Agent) => (await agent.get('/api/user/profile').expect(200)).body;
  const row = async (id: string) =>
    (
      await db.query(`SELECT processed_at, attempts, last_error FROM billing_events WHERE id = $1`, [id])
    )[0] as { processed_at: Date | null; attempts: number; last_error: string | null };

  /** A Business subscription the provider holds for a user who is still on Free with us. */
  async function providerOnly(tag: string) {
    const { agent, userId } = await signUp(app);
    const subId = `sub_sim_${tag}_${userId.slice(0, 8)}`;
    await db.query(
      `INSERT INTO sim_subscriptions (id, user_id, customer_id, plan, status, current_period_start, current_period_end, created_at)
       VALUES ($1, $2, $3, 'business', 'active', now(), now() + interval '30 days', now())`,
      [subId, userId, `cus_sim_${tag}_${userId.slice(0, 8)}`],
    );
    return { agent, userId, subId };
  }

  it('answers 200 before processing; a first provider read that throws is retried and the event applied', async () => {
    const { agent, subId } = await providerOnly('retry');
    // The provider's first answer for this subscription is held, then fails; later reads are real.
    let fail!: (err: Error) => void;
    const held = new Promise<never>((_, reject) => (fail = reject));
    const reads: string[] = [];
    const real = source.retrieveSubscription.bind(source);
    const spy = jest.spyOn(source, 'retrieveSubscription').mockImplementation(async (id) => {
      reads.push(id);
      return id === subId && reads.filter((r) => r === subId).length === 1 ? held : real(id);
    });

    const res = await post(event('evt_test_retry', subId));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true });
    // The worker is inside the provider call now, after the answer: nothing is applied yet.
    await until('the worker to read the subscription', async () => reads.includes(subId));
    expect((await profile(agent)).plan).toBe('free');
    expect(await row('evt_test_retry')).toMatchObject({ processed_at: null, attempts: 1 });

    fail(new Error('provider unavailable (injected)'));
    await until('the retry to apply the event', async () => (await row('evt_test_retry')).processed_at);
    expect(await row('evt_test_retry')).toMatchObject({ attempts: 2, last_error: null });
    expect(reads.filter((r) => r === subId)).toHaveLength(2);
    const p = await profile(agent);
    expect(p.plan).toBe('business');
    expect(p.subscription).toMatchObject({ id: subId, status: 'active' });
    expect(logs.join('\n')).toMatch(
      /billing event evt_test_retry failed \(attempt 1\): provider unavailable \(injected\); retrying/,
    );
    spy.mockRestore();
  });

  it('the same event delivered three times (two at once) is stored once, queued as one job and applied once', async () => {
    const { agent, subId } = await providerOnly('dup');
    const applied: ProviderSubscription[] = [];
    const planState = worker.get(PlanState);
    const real = planState.apply.bind(planState);
    const spy = jest.spyOn(planState, 'apply').mockImplementation(async (sub, now) => {
      if (sub.id === subId) applied.push(sub);
      return real(sub, now);
    });
    const body = event('evt_test_dup_queue', subId);
    const [a, b] = await Promise.all([post(body), post(body)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect([a.body.duplicate, b.body.duplicate].filter(Boolean)).toHaveLength(1);
    await until('the event to be applied', async () => (await row('evt_test_dup_queue')).processed_at);
    expect((await post(body).expect(200)).body).toEqual({ received: true, duplicate: true });
    await new Promise((r) => setTimeout(r, 500)); // a second job, had one been queued, would have run
    expect(applied).toHaveLength(1);
    expect(await row('evt_test_dup_queue')).toMatchObject({ attempts: 1 });
    expect((await profile(agent)).plan).toBe('business');
    spy.mockRestore();
  });

  it('the reconciliation job repairs a user whose row drifted from the provider and logs each change', async () => {
    const { agent, userId } = await signUp(app);
    const res = await agent.post('/api/create-checkout-session').set(H).send({ plan: 'pro' }).expect(200);
    const cs = (res.body.url as string).split('/').pop() as string;
    await agent
      .post(`/api/billing/simulated/sessions/${cs}/complete`)
      .set(H)
      .send({ outcome: 'pay' })
      .expect(200);
    await until('the checkout events to be applied', async () => {
      const [{ n }] = await db.query(
        `SELECT count(*)::int AS n FROM billing_events WHERE processed_at IS NULL`,
      );
      return n === 0;
    });
    const before = await profile(agent);
    expect(before.plan).toBe('pro');
    // Drift: a lost event, a hand edit… our row no longer matches the provider.
    await db.query(
      `UPDATE users SET plan = 'free', subscription_status = 'past_due',
         subscription_current_period_end = now() + interval '2 days' WHERE id = $1`,
      [userId],
    );
    expect((await profile(agent)).plan).toBe('free');

    const maintenance = worker.get<Queue>(getQueueToken(QUEUES.maintenance));
    const job = await maintenance.add('billing-reconcile', {});
    const done = await until('the reconciliation job', async () => {
      const j = await maintenance.getJob(job.id as string);
      const state = await j?.getState();
      if (state === 'failed') throw new Error(`reconciliation failed: ${j?.failedReason}`);
      // Read the job again: the copy fetched before its state may predate the completion (no return value).
      return state === 'completed' ? maintenance.getJob(job.id as string) : undefined;
    });
    // Other test files share this database: this user is one of the repaired, and the log names it.
    expect((done?.returnvalue as { repaired: number }).repaired).toBeGreaterThanOrEqual(1);

    const after = await profile(agent);
    expect(after.plan).toBe('pro');
    expect(after.subscription).toEqual(before.subscription);
    const line = logs.find((l) => l.includes(`billing drift repaired for user ${userId}`));
    expect(line).toBeDefined();
    expect(line).toContain('plan \\"free\\" → \\"pro\\"');
    expect(line).toContain('status \\"past_due\\" → \\"active\\"');
    expect(line).toMatch(/periodEnd \d+ → \d+/);
  });
});
