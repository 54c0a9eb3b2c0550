import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { BILLING_PROVIDER } from '../src/billing/billing-provider';
import { SimulatedBillingProvider } from '../src/billing/simulated-billing.provider';
import { H, signUp, startApp, type Agent } from './support/api-test-app';
import { startWorker } from '../../worker/test/support/start-worker';

// Plans and billing with the simulated provider against the real Postgres: checkout, the webhook's
// signature/duplicate/ordering rules, every plan action of spec §4, the clock past period end. Provider
// events are applied by the worker (in-process here), so reads wait until every stored event is applied.

const MB = 1024 * 1024;

function mapping(name: string) {
  return {
    name,
    templateHeaders: ['Name'],
    dataHeaders: ['Full Name'],
    mappings: [{ templateColumn: 'Name', dataColumn: 'Full Name' }],
  };
}

describe('billing with the simulated provider (e2e)', () => {
  let app: INestApplication;
  let worker: INestApplicationContext;
  let db: DataSource;
  let sim: SimulatedBillingProvider;

  beforeAll(async () => {
    app = await startApp();
    worker = await startWorker();
    db = app.get(DataSource);
    sim = app.get(BILLING_PROVIDER) as SimulatedBillingProvider;
    expect(sim).toBeInstanceOf(SimulatedBillingProvider);
  });
  afterAll(async () => {
    await worker?.close();
    await app?.close();
  });

  /** Waits until the worker has applied every provider event stored so far. */
  async function settled(): Promise<void> {
    const end = Date.now() + 20_000;
    for (;;) {
      const [{ n }] = await db.query(
        `SELECT count(*)::int AS n FROM billing_events WHERE processed_at IS NULL`,
      );
      if (n === 0) return;
      if (Date.now() > end) throw new Error(`${n} billing events still unapplied`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  const profile = async (agent: Agent) => {
    await settled();
    return (await agent.get('/api/user/profile').expect(200)).body;
  };

  /** Free user → checkout → the simulated page's button; returns the redirect. */
  async function checkout(agent: Agent, plan: string, outcome: 'pay' | 'decline' | 'cancel') {
    const res = await agent.post('/api/create-checkout-session').set(H).send({ plan }).expect(200);
    const id = /\/billing\/checkout\/(cs_sim_[0-9a-f]+)$/.exec(res.body.url)?.[1] as string;
    expect(id).toBeTruthy();
    const s = await agent.get(`/api/billing/simulated/sessions/${id}`).expect(200);
    expect(s.body).toEqual({
      id,
      plan,
      planName: plan === 'pro' ? 'Pro' : 'Business',
      price: plan === 'pro' ? '£12/month' : '£39/month',
      priceGbp: plan === 'pro' ? 12 : 39,
      email: expect.stringMatching(/@example\.com$/),
      status: 'open',
    });
    const done = await agent
      .post(`/api/billing/simulated/sessions/${id}/complete`)
      .set(H)
      .send({ outcome })
      .expect(200);
    await settled();
    return { id, redirectUrl: done.body.redirectUrl as string };
  }

  const advance = (agent: Agent, days: number) =>
    agent.post('/api/test/advance-clock').set(H).send({ days }).expect(200);

  it('GET /api/plans serves the catalogue from libs/domain to anyone', async () => {
    const res = await request(app.getHttpServer()).get('/api/plans').expect(200);
    expect(Object.keys(res.body)).toEqual(['free', 'pro', 'business', 'enterprise']);
    expect(res.body.pro).toMatchObject({
      name: 'Pro',
      price: '£12/month',
      priceGbp: 12,
      maxSavedMappings: 10,
    });
    expect(res.body.business).toMatchObject({ price: '£39/month', maxFileSize: 100 * MB });
    expect(res.body.enterprise.priceGbp).toBeNull();
    expect(res.body.free.limits).toMatchObject({ maxRowsPerFile: 10_000, maxMonthlyRows: 50_000 });
  });

  it('pay → Pro with Pro limits; cancel → reactivate → cancel; period end → Free with extra mappings locked', async () => {
    const { agent } = await signUp(app);
    const { redirectUrl } = await checkout(agent, 'pro', 'pay');
    expect(redirectUrl).toBe('/csv-mapper?success=true');
    let p = await profile(agent);
    expect(p.plan).toBe('pro');
    expect(p.planLimits).toMatchObject({ maxFileSize: 25 * MB, maxRowsPerFile: 250_000 });
    expect(p.subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: false, cancelAt: null });
    const periodEnd = p.subscription.currentPeriodEnd as number;
    expect(periodEnd - Date.now() / 1000).toBeGreaterThan(29 * 86400);

    // A second checkout while subscribed is refused.
    const again = await agent
      .post('/api/create-checkout-session')
      .set(H)
      .send({ plan: 'business' })
      .expect(409);
    expect(again.body.code).toBe('ALREADY_SUBSCRIBED');

    const cancelled = await agent.post('/api/cancel-subscription').set(H).expect(200);
    expect(cancelled.body.message).toMatch(/until \d{2}\/\d{2}\/\d{4}/);
    p = await profile(agent);
    expect(p.subscription).toMatchObject({ cancelAtPeriodEnd: true, cancelAt: periodEnd });
    expect(p.plan).toBe('pro');
    expect((await agent.post('/api/cancel-subscription').set(H).expect(409)).body.code).toBe(
      'ALREADY_CANCELLING',
    );

    await agent.post('/api/reactivate-subscription').set(H).expect(200);
    expect((await profile(agent)).subscription).toMatchObject({ cancelAtPeriodEnd: false, cancelAt: null });
    expect((await agent.post('/api/reactivate-subscription').set(H).expect(409)).body.code).toBe(
      'NOT_CANCELLING',
    );

    for (const n of ['A', 'B', 'C']) await agent.post('/api/mappings').set(H).send(mapping(n)).expect(201);
    await agent.post('/api/cancel-subscription').set(H).expect(200);
    await advance(agent, 31);
    p = await profile(agent);
    expect(p.plan).toBe('free');
    expect(p.subscription).toBeNull();
    expect(p.planLimits.maxFileSize).toBe(1 * MB);
    const list = (await agent.get('/api/mappings').expect(200)).body as { locked: boolean }[];
    expect(list.map((m) => m.locked).sort()).toEqual([false, true, true]);
  });

  it('a period end without cancellation renews the subscription (invoice.paid) and keeps the plan', async () => {
    const { agent } = await signUp(app);
    await checkout(agent, 'business', 'pay');
    const before = (await profile(agent)).subscription.currentPeriodEnd as number;
    await advance(agent, 31);
    const p = await profile(agent);
    expect(p.plan).toBe('business');
    expect(p.subscription.status).toBe('active');
    expect(p.subscription.currentPeriodEnd).toBeGreaterThan(before);
  });

  it('declined card → incomplete (still Free); simulate payment → active; another decline expires → Free, Payment Failed', async () => {
    const { agent } = await signUp(app);
    await checkout(agent, 'pro', 'decline');
    let p = await profile(agent);
    expect(p.plan).toBe('free');
    expect(p.subscription).toMatchObject({ status: 'incomplete' });
    const subId = p.subscription.id as string;

    await agent.post('/api/test/simulate-payment-success').set(H).send({ subscriptionId: subId }).expect(200);
    p = await profile(agent);
    expect(p.plan).toBe('pro');
    expect(p.subscription).toMatchObject({ id: subId, status: 'active' });

    const other = (await signUp(app)).agent;
    await checkout(other, 'business', 'decline');
    await advance(other, 1);
    p = await profile(other);
    expect(p.plan).toBe('free');
    expect(p.subscription).toMatchObject({ status: 'incomplete_expired' });
    // reset clears it so the user can start again
    await other.post('/api/test/reset-subscription').set(H).expect(200);
    expect((await profile(other)).subscription).toBeNull();
    await checkout(other, 'business', 'pay');
    expect((await profile(other)).plan).toBe('business');
  });

  it('cancel on the checkout page changes nothing', async () => {
    const { agent } = await signUp(app);
    const { id, redirectUrl } = await checkout(agent, 'pro', 'cancel');
    expect(redirectUrl).toBe('/csv-mapper?canceled=true');
    expect((await profile(agent)).plan).toBe('free');
    const closed = await agent
      .post(`/api/billing/simulated/sessions/${id}/complete`)
      .set(H)
      .send({ outcome: 'pay' });
    expect(closed.status).toBe(409);
  });

  it('an unpaid checkout session expires after 24 hours (simulated clock), and cannot be paid then', async () => {
    const { agent } = await signUp(app);
    const res = await agent.post('/api/create-checkout-session').set(H).send({ plan: 'pro' }).expect(200);
    const id = (res.body.url as string).split('/').pop() as string;
    expect((await agent.get(`/api/billing/simulated/sessions/${id}`).expect(200)).body.status).toBe('open');
    await advance(agent, 0.5);
    expect((await agent.get(`/api/billing/simulated/sessions/${id}`).expect(200)).body.status).toBe('open');
    await advance(agent, 0.6);
    expect((await agent.get(`/api/billing/simulated/sessions/${id}`).expect(200)).body.status).toBe(
      'expired',
    );
    const late = await agent
      .post(`/api/billing/simulated/sessions/${id}/complete`)
      .set(H)
      .send({ outcome: 'pay' });
    expect(late.status).toBe(409);
    expect((await profile(agent)).plan).toBe('free');
  });

  it('deleting the account ends a live subscription at once, before the user is removed', async () => {
    const { agent, userId } = await signUp(app);
    await checkout(agent, 'pro', 'pay');
    const subId = (await profile(agent)).subscription.id as string;
    const deletedBefore = Number(
      (
        await db.query(
          `SELECT count(*)::int AS n FROM billing_events WHERE type = 'customer.subscription.deleted'`,
        )
      )[0].n,
    );
    const seen: string[] = [];
    const spy = jest.spyOn(sim, 'cancelNow').mockImplementation(async function (
      this: SimulatedBillingProvider,
      id,
    ) {
      const [row] = await db.query('SELECT status FROM sim_subscriptions WHERE id = $1', [id]);
      const [user] = await db.query('SELECT id FROM users WHERE id = $1', [userId]);
      seen.push(`${row?.status}/${user ? 'user present' : 'user gone'}`);
      spy.mockRestore();
      await sim.cancelNow(id);
      const [after] = await db.query('SELECT status FROM sim_subscriptions WHERE id = $1', [id]);
      seen.push(after.status);
    });
    await agent.post('/api/user/delete-account').set(H).send({ password: 'Tr1cky-Mapper!' }).expect(200);
    expect(seen).toEqual(['active/user present', 'canceled']);
    const deletedAfter = Number(
      (
        await db.query(
          `SELECT count(*)::int AS n FROM billing_events WHERE type = 'customer.subscription.deleted'`,
        )
      )[0].n,
    );
    expect(deletedAfter).toBe(deletedBefore + 1);
    expect(await db.query('SELECT id FROM users WHERE id = $1', [userId])).toHaveLength(0);
    expect(await db.query('SELECT id FROM sim_subscriptions WHERE id = $1', [subId])).toHaveLength(0);
  });

  it('checkout creation is throttled per user (429 with Retry-After), other users unaffected', async () => {
    const { agent } = await signUp(app);
    for (let i = 0; i < 10; i++) {
      await agent.post('/api/create-checkout-session').set(H).send({ plan: 'pro' }).expect(200);
    }
    const res = await agent.post('/api/create-checkout-session').set(H).send({ plan: 'pro' }).expect(429);
    expect(res.headers['retry-after']).toBeDefined();
    expect(res.body.code).toBeDefined();
    const other = await signUp(app);
    await other.agent.post('/api/create-checkout-session').set(H).send({ plan: 'pro' }).expect(200);
  });

  it('two concurrent Pay clicks on one session make one subscription', async () => {
    const { agent, userId } = await signUp(app);
    const res = await agent.post('/api/create-checkout-session').set(H).send({ plan: 'pro' }).expect(200);
    const id = (res.body.url as string).split('/').pop() as string;
    const pay = () =>
      agent.post(`/api/billing/simulated/sessions/${id}/complete`).set(H).send({ outcome: 'pay' });
    const statuses = (await Promise.all([pay(), pay()])).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
    const subs = await db.query('SELECT id FROM sim_subscriptions WHERE user_id = $1', [userId]);
    expect(subs).toHaveLength(1);
    expect((await profile(agent)).subscription).toMatchObject({ id: subs[0].id, status: 'active' });
  });

  it('plan actions of spec §4: allowed and refused', async () => {
    const { agent } = await signUp(app);
    // free → pro/business needs a checkout
    const up = await agent.post('/api/user/upgrade-plan').set(H).send({ plan: 'business' }).expect(200);
    expect(up.body).toMatchObject({ success: false, url: expect.stringContaining('/billing/checkout/') });
    expect(
      (await agent.post('/api/user/upgrade-plan').set(H).send({ plan: 'free' }).expect(409)).body.code,
    ).toBe('SAME_PLAN');
    expect(
      (await agent.post('/api/user/upgrade-plan').set(H).send({ plan: 'enterprise' }).expect(400)).body.code,
    ).toBe('CONTACT_SALES');
    expect(
      (await agent.post('/api/user/upgrade-plan').set(H).send({ plan: 'gold' }).expect(400)).body.code,
    ).toBe('INVALID_PLAN');
    expect((await agent.post('/api/cancel-subscription').set(H).expect(409)).body.code).toBe(
      'NO_SUBSCRIPTION',
    );

    // business → pro: scheduled for the next billing cycle
    await checkout(agent, 'business', 'pay');
    const down = await agent.post('/api/user/upgrade-plan').set(H).send({ plan: 'pro' }).expect(200);
    expect(down.body).toMatchObject({ success: true, effectiveAt: expect.any(Number) });
    let p = await profile(agent);
    expect(p.plan).toBe('business');
    expect(p.subscription).toMatchObject({
      pendingPlan: 'pro',
      pendingPlanAt: p.subscription.currentPeriodEnd,
    });
    await advance(agent, 31);
    p = await profile(agent);
    expect(p.plan).toBe('pro');
    expect(p.subscription.pendingPlan).toBeNull();

    // pro → business (the upgrade path of spec §4), also at the next cycle
    await agent.post('/api/user/upgrade-plan').set(H).send({ plan: 'business' }).expect(200);
    expect((await profile(agent)).subscription.pendingPlan).toBe('business');

    // any paid plan → free: ends at period end
    const toFree = await agent.post('/api/user/upgrade-plan').set(H).send({ plan: 'free' }).expect(200);
    expect(toFree.body.success).toBe(true);
    expect((await profile(agent)).subscription.cancelAtPeriodEnd).toBe(true);

    // enterprise is contact-sales only
    const ent = await signUp(app, 'enterprise');
    expect(
      (await ent.agent.post('/api/user/upgrade-plan').set(H).send({ plan: 'pro' }).expect(400)).body.code,
    ).toBe('CONTACT_SALES');
  });

  it("another user's checkout session and subscription are 404", async () => {
    const owner = await signUp(app);
    const res = await owner.agent
      .post('/api/create-checkout-session')
      .set(H)
      .send({ plan: 'pro' })
      .expect(200);
    const id = (res.body.url as string).split('/').pop() as string;
    const intruder = await signUp(app);
    await intruder.agent.get(`/api/billing/simulated/sessions/${id}`).expect(404);
    await intruder.agent
      .post(`/api/billing/simulated/sessions/${id}/complete`)
      .set(H)
      .send({ outcome: 'pay' })
      .expect(404);
    await checkout(owner.agent, 'pro', 'decline');
    const subId = (await profile(owner.agent)).subscription.id;
    await intruder.agent
      .post('/api/test/simulate-payment-success')
      .set(H)
      .send({ subscriptionId: subId })
      .expect(404);
    expect((await profile(owner.agent)).subscription.status).toBe('incomplete');
  });

  describe('POST /api/billing/webhook', () => {
    const post = (body: string, signature?: string) => {
      const r = request(app.getHttpServer())
        .post('/api/billing/webhook')
        .set('content-type', 'application/json');
      return (signature ? r.set('stripe-signature', signature) : r).send(body);
    };
    const count = async (id: string) =>
      Number((await db.query(`SELECT count(*) AS n FROM billing_events WHERE id = $1`, [id]))[0].n);

    /** A subscription the provider knows about, for forged events to refer to. */
    async function paidSubscription() {
      const { agent, userId } = await signUp(app);
      await checkout(agent, 'pro', 'pay');
      const p = await profile(agent);
      return { agent, userId, subId: p.subscription.id as string };
    }

    const event = (id: string, type: string, object: Record<string, unknown>) =>
      JSON.stringify({ id, object: 'event', type, data: { object } });

    it('refuses a bad signature, a missing header and a stale timestamp with 400 and no state change', async () => {
      const { agent, subId } = await paidSubscription();
      await db.query(`UPDATE sim_subscriptions SET status = 'canceled' WHERE id = $1`, [subId]);
      const body = event('evt_test_badsig', 'customer.subscription.deleted', {
        id: subId,
        object: 'subscription',
      });

      const bad = await post(body, sim.sign(body).replace(/v1=[0-9a-f]+/, 'v1=' + '0'.repeat(64))).expect(
        400,
      );
      expect(bad.body).toEqual({
        error: 'Webhook signature verification failed.',
        code: 'INVALID_SIGNATURE',
      });
      await post(body).expect(400);
      await post(body, sim.sign(body, Math.floor(Date.now() / 1000) - 600)).expect(400);
      await post(body + ' ', sim.sign(body)).expect(400); // tampered body
      expect(await count('evt_test_badsig')).toBe(0);
      expect((await profile(agent)).plan).toBe('pro');

      // the same event, properly signed, is applied
      await post(body, sim.sign(body)).expect(200);
      expect((await profile(agent)).plan).toBe('free');
    });

    it('the same event twice, also concurrently, is stored once and applied once', async () => {
      const { agent, subId } = await paidSubscription();
      await db.query(`UPDATE sim_subscriptions SET cancel_at_period_end = true WHERE id = $1`, [subId]);
      const body = event('evt_test_dup', 'customer.subscription.updated', {
        id: subId,
        object: 'subscription',
      });
      const [a, b] = await Promise.all([post(body, sim.sign(body)), post(body, sim.sign(body))]);
      expect([a.status, b.status]).toEqual([200, 200]);
      expect([a.body.duplicate, b.body.duplicate].filter(Boolean)).toHaveLength(1);
      expect(await count('evt_test_dup')).toBe(1);
      await settled();
      // a replay later is a no-op too, even though the provider's state has changed since
      await db.query(`UPDATE sim_subscriptions SET cancel_at_period_end = false WHERE id = $1`, [subId]);
      expect((await post(body, sim.sign(body)).expect(200)).body).toEqual({
        received: true,
        duplicate: true,
      });
      expect((await profile(agent)).subscription.cancelAtPeriodEnd).toBe(true);
    });

    it('updated before created still ends in the provider’s state', async () => {
      const { agent, userId } = await signUp(app);
      const subId = 'sub_sim_outoforder';
      await db.query(
        `INSERT INTO sim_subscriptions (id, user_id, customer_id, plan, status, current_period_start, current_period_end, created_at)
         VALUES ($1, $2, 'cus_sim_outoforder', 'business', 'active', now(), now() + interval '30 days', now())`,
        [subId, userId],
      );
      const updated = event('evt_test_order_2', 'customer.subscription.updated', {
        id: subId,
        status: 'active',
      });
      const created = event('evt_test_order_1', 'customer.subscription.created', {
        id: subId,
        status: 'incomplete',
      });
      await post(updated, sim.sign(updated)).expect(200);
      await post(created, sim.sign(created)).expect(200);
      const p = await profile(agent);
      expect(p.plan).toBe('business');
      expect(p.subscription).toMatchObject({ id: subId, status: 'active' });
    });

    it('a late event of an older unpaid or ended subscription does not replace the live one', async () => {
      const { agent, userId } = await signUp(app);
      await checkout(agent, 'pro', 'pay');
      const live = (await profile(agent)).subscription.id as string;
      for (const [id, status] of [
        ['sub_sim_old_unpaid', 'incomplete'],
        ['sub_sim_old_ended', 'canceled'],
      ]) {
        await db.query(
          `INSERT INTO sim_subscriptions (id, user_id, customer_id, plan, status, current_period_start, current_period_end, created_at)
           VALUES ($1, $2, 'cus_sim_old', 'business', $3, now(), now() + interval '30 days', now() - interval '40 days')`,
          [id, userId, status],
        );
        const late = event(`evt_test_late_${id}`, 'customer.subscription.updated', { id, status });
        await post(late, sim.sign(late)).expect(200);
      }
      const p = await profile(agent);
      expect(p.plan).toBe('pro');
      expect(p.subscription).toMatchObject({ id: live, status: 'active' });
    });
  });
});

describe('billing with Stripe configured', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await startApp({
      STRIPE_SECRET_KEY: 'sk_test_not_a_real_key',
      STRIPE_WEBHOOK_SECRET: 'whsec_test_secret_for_signatures',
      STRIPE_PRICE_PRO: 'price_pro_test',
      STRIPE_PRICE_BUSINESS: 'price_business_test',
    });
  });
  afterAll(() => app.close());

  it('has no test or simulated routes, still serves plans, and checks signatures with the Stripe secret', async () => {
    const { agent } = await signUp(app);
    await agent.post('/api/test/advance-clock').set(H).send({ days: 1 }).expect(404);
    await agent
      .post('/api/test/simulate-payment-success')
      .set(H)
      .send({ subscriptionId: 'sub_x' })
      .expect(404);
    await agent.get('/api/billing/simulated/sessions/cs_x').expect(404);
    // signed out too: 404 (the routes do not exist), not a 401 that would reveal them
    await request(app.getHttpServer()).post('/api/test/advance-clock').set(H).send({ days: 1 }).expect(404);
    await request(app.getHttpServer()).get('/api/plans').expect(200);
    const body = JSON.stringify({ id: 'evt_x', type: 'invoice.paid', data: { object: {} } });
    const Stripe = (await import('stripe')).default;
    const wrong = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: 'whsec_other' });
    await request(app.getHttpServer())
      .post('/api/billing/webhook')
      .set('content-type', 'application/json')
      .set('stripe-signature', wrong)
      .send(body)
      .expect(400);
    // signed right, for an event type with no subscription: stored, nothing to fetch
    const right = Stripe.webhooks.generateTestHeaderString({
      payload: body,
      secret: 'whsec_test_secret_for_signatures',
    });
    await request(app.getHttpServer())
      .post('/api/billing/webhook')
      .set('content-type', 'application/json')
      .set('stripe-signature', right)
      .send(body)
      .expect(200);
  });
});

describe('billing in production without Stripe', () => {
  it('has no simulated or test routes (404, not 401), and still serves plans', async () => {
    const { randomBytes } = await import('node:crypto');
    const app = await startApp({
      NODE_ENV: 'production',
      SESSION_SECRET: randomBytes(32).toString('hex'),
      APP_URL: 'https://csvmapper.test',
    });
    try {
      const http = () => request(app.getHttpServer());
      await http().post('/api/test/advance-clock').set(H).send({ days: 1 }).expect(404);
      await http().post('/api/test/reset-subscription').set(H).expect(404);
      await http().get('/api/billing/simulated/sessions/cs_sim_x').expect(404);
      await http().get('/api/plans').expect(200);
    } finally {
      await app.close();
    }
  });
});
