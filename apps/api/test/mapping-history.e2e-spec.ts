import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { JobEventData } from '@csv-mapper/queue';
import { H, signUp } from './support/api-test-app';
import { closeAll } from './support/app-and-worker';
import { apiClient, startListeningStack } from './support/listening-stack';
import { verifyDelivery, type Receiver } from './support/webhook-receiver';

// Issue 30 through the real entry points: a saved mapping remembers the rows it exported. Two overlapping
// bank statements (the second repeats the last four days of the first, as a statement downloaded on the
// 3rd does) run one after the other through the same saved mapping, by API key over real HTTP, the sync
// answer, the background job (worker in process) and its verified job.completed webhook; the usage route,
// the runs list and the database are checked from outside.

interface Event {
  type: string;
  timestamp: string;
  data: JobEventData & { totals: Record<string, unknown> };
}

const TEMPLATE = 'Date,Payee,Amount\r\n';
const HEAD = 'Booking date,Description,Amount,Balance\n';
// Statement 1: 1–20 October; statement 2: 17–31 October (17–20 repeated, same lines).
const ROWS_1 = [
  ['2026-10-01', 'CARD 4821 TESCO STORES 2231', '-23.41', '1976.59'],
  ['2026-10-02', 'SALARY ACME LTD', '2450.00', '4426.59'],
  ['2026-10-03', 'DD BRITISH GAS', '-61.00', '4365.59'],
  ['2026-10-06', 'CARD 4821 PRET A MANGER', '-7.85', '4357.74'],
  ['2026-10-08', 'SO RENT FLAT 2', '-950.00', '3407.74'],
  ['2026-10-09', 'CARD 4821 AMAZON MKTPLACE', '-18.99', '3388.75'],
  ['2026-10-13', 'FPI J SMITH REF DINNER', '32.50', '3421.25'],
  ['2026-10-15', 'CARD 4821 SHELL 0932', '-54.20', '3367.05'],
  ['2026-10-17', 'DD VODAFONE', '-25.00', '3342.05'],
  ['2026-10-17', 'CARD 4821 PRET A MANGER', '-7.85', '3334.20'],
  ['2026-10-19', 'CARD 4821 WAITROSE 114', '-43.12', '3291.08'],
  ['2026-10-20', 'ATM HIGH ST 20OCT', '-40.00', '3251.08'],
];
const ROWS_2 = [
  ...ROWS_1.slice(-4),
  ['2026-10-22', 'CARD 4821 BOOTS 1160', '-12.49', '3238.59'],
  ['2026-10-24', '"CARD 4821 JOHN LEWIS, OXFORD ST"', '-89.00', '3149.59'],
  ['2026-10-27', 'FPI HMRC REFUND', '112.30', '3261.89'],
  ['2026-10-29', 'DD COUNCIL TAX', '-148.00', '3113.89'],
  ['2026-10-31', 'INTEREST PAID', '0.41', '3114.30'],
];
const csv = (rows: string[][]) => HEAD + rows.map((r) => r.join(',')).join('\n') + '\n';
const STATEMENT_1 = csv(ROWS_1);
const STATEMENT_2 = csv(ROWS_2);
/** The result's lines for rows (Date, Payee, Amount; CRLF as the template). */
const out = (rows: string[][]) => TEMPLATE + rows.map((r) => `${r[0]},${r[1]},${r[2]}\r\n`).join('');
const MAPPINGS = [
  { templateColumn: 'Date', dataColumn: 'Booking date' },
  { templateColumn: 'Payee', dataColumn: 'Description' },
  { templateColumn: 'Amount', dataColumn: 'Amount' },
];
const OVERLAP = 4;

describe('saved mapping run history (e2e)', () => {
  let app: INestApplication;
  let worker: INestApplicationContext;
  let receiver: Receiver;
  let base: string;
  let db: DataSource;

  beforeAll(async () => {
    ({ app, worker, receiver, base } = await startListeningStack());
    db = app.get(DataSource);
  });
  afterAll(() => closeAll(worker, app, receiver));

  /** A Business user with an API key made through the real routes. */
  async function business() {
    const { agent, userId, username } = await signUp(app, 'business');
    const created = await agent.post('/api/api-keys').set(H).send({ name: 'books' }).expect(201);
    const key = created.body.key as string;
    const { call, form, upload: uploadFile } = apiClient(base, key);
    const upload = async (kind: 'template' | 'data', name: string, content: string) =>
      (await uploadFile(kind, name, content)).id;
    const mapping = async (duplicates: 'skip' | 'flag' | 'keep') => {
      const r = await call('POST', '/api/mappings', {
        name: `Bank to books (${duplicates})`,
        templateHeaders: ['Date', 'Payee', 'Amount'],
        dataHeaders: ['Booking date', 'Description', 'Amount', 'Balance'],
        mappings: MAPPINGS,
        duplicates,
      });
      expect(r.status).toBe(201);
      expect(r.json.duplicates).toBe(duplicates);
      return r.json.id as string;
    };
    const used = async () =>
      ((await agent.get('/api/user/profile').expect(200)).body as { monthlyUsage: { used: number } })
        .monthlyUsage.used;
    return { agent, userId, username, call, form, upload, mapping, used };
  }

  it('skip: the second statement through POST /api/process leaves out exactly the overlapping rows, uncounted', async () => {
    const u = await business();
    const mappingId = await u.mapping('skip');
    const templateFileId = await u.upload('template', 'books.csv', TEMPLATE);
    const first = await u.call('POST', '/api/process', {
      templateFileId,
      dataFileId: await u.upload('data', 'statement-oct-a.csv', STATEMENT_1),
      mappingId,
    });
    expect(first.status).toBe(200);
    expect(first.json.csvData).toBe(out(ROWS_1));
    expect(first.json.totals).toMatchObject({
      rowsWritten: 12,
      rowsAlreadyExported: 0,
      alreadyExportedFrom: [],
    });
    expect(await u.used()).toBe(12);

    const second = await u.call('POST', '/api/process', {
      templateFileId,
      dataFileId: await u.upload('data', 'statement-oct-b.csv', STATEMENT_2),
      mappingId,
    });
    expect(second.status).toBe(200);
    expect(second.json.csvData).toBe(out(ROWS_2.slice(OVERLAP)));
    const totals = second.json.totals as Record<string, unknown>;
    expect(totals).toMatchObject({
      rowsInFile: 9,
      rowsRead: 9,
      rowsWritten: 5,
      rowsSkipped: OVERLAP,
      rowsAlreadyExported: OVERLAP,
      skipped: [expect.objectContaining({ reason: 'alreadyExported', rows: OVERLAP })],
    });
    // Skipped rows are not counted against the month's rows.
    expect(await u.used()).toBe(12 + 5);

    const runs = await u.call('GET', `/api/mappings/${mappingId}/runs`);
    expect(runs.status).toBe(200);
    const list = runs.json.runs as Array<Record<string, unknown>>;
    expect(runs.json.total).toBe(2);
    expect(list.map((r) => [r.rowsRead, r.rowsWritten, r.rowsAlreadyExported, r.source, r.state])).toEqual([
      [9, 5, OVERLAP, 'api', 'completed'],
      [12, 12, 0, 'api', 'completed'],
    ]);
    expect(list[0].by).toEqual({ userId: u.userId, name: u.username });
    expect(totals.alreadyExportedFrom).toEqual([
      { runId: list[1].id, at: list[1].createdAt, by: { userId: u.userId, name: u.username }, rows: OVERLAP },
    ]);
    // Paginated like other lists.
    const page = await u.call('GET', `/api/mappings/${mappingId}/runs?limit=1`);
    expect(page.json).toMatchObject({ total: 2, nextCursor: '1' });
    const rest = await u.call('GET', `/api/mappings/${mappingId}/runs?limit=1&cursor=1`);
    expect((rest.json.runs as Array<{ id: string }>)[0].id).toBe(list[1].id);
    expect(rest.json.nextCursor).toBeNull();
  });

  it('flag: POST /api/mappings/:id/runs writes every row and reports the overlapping ones (sync, saved template)', async () => {
    const u = await business();
    const mappingId = await u.mapping('flag');
    const first = await u.form(`/api/mappings/${mappingId}/runs`, {}, STATEMENT_1, 'statement-oct-a.csv');
    expect(first.status).toBe(200);
    expect(first.json.csvData).toBe(out(ROWS_1));
    const second = await u.form(`/api/mappings/${mappingId}/runs`, {}, STATEMENT_2, 'statement-oct-b.csv');
    expect(second.status).toBe(200);
    expect(second.json.csvData).toBe(out(ROWS_2));
    expect(second.json.totals).toMatchObject({
      rowsWritten: 9,
      rowsSkipped: 0,
      rowsAlreadyExported: OVERLAP,
    });
    const flagged = (second.json.warnings as Array<{ row: number; rule?: string; reason: string }>).filter(
      (w) => w.rule === 'alreadyExported',
    );
    expect(flagged.map((w) => w.row)).toEqual([1, 2, 3, 4]);
    const day = new Date().toLocaleDateString('en-GB', {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      timeZone: 'UTC',
    });
    expect(flagged[0].reason).toBe(`Exported on ${day} by ${u.username}`);
    // Flagged rows are written, so counted.
    expect(await u.used()).toBe(12 + 9);
    // The review grid lists them (rule alreadyExported) through the run's review id.
    const reviewId = second.json.reviewId as string;
    const issues = await u.call('GET', `/api/jobs/${reviewId}/issues?rule=alreadyExported`);
    expect(issues.status).toBe(200);
    expect((issues.json.issues as Array<{ row: number }>).map((i) => i.row)).toEqual([1, 2, 3, 4]);
  });

  it('async: the second job leaves out the overlap; job.completed (verified) carries mappingId and rowsAlreadyExported', async () => {
    const u = await business();
    const mappingId = await u.mapping('skip');
    const ep = await u.call('POST', '/api/webhooks', { url: receiver.url(`/hist-${u.userId}`) });
    expect(ep.status).toBe(201);
    const secret = ep.json.secret as string;
    const path = `/hist-${u.userId}`;

    const q1 = await u.form(`/api/mappings/${mappingId}/runs`, { async: 'true' }, STATEMENT_1, 'a.csv');
    expect(q1.status).toBe(202);
    await receiver.waitFor(path, 1, 30_000);
    const q2 = await u.form(`/api/mappings/${mappingId}/runs`, { async: 'true' }, STATEMENT_2, 'b.csv');
    expect(q2.status).toBe(202);
    const got = await receiver.waitFor(path, 2, 30_000);
    const events = got.map((r) => verifyDelivery<Event>(secret, r));
    const second = events.find((e) => e.data.jobId === q2.json.jobId) as Event;
    expect(second.type).toBe('job.completed');
    expect(second.data).toMatchObject({ mappingId, rowsRead: 9, rowsWritten: 5 });
    expect(second.data.totals).toMatchObject({ rowsAlreadyExported: OVERLAP, rowsSkipped: OVERLAP });
    const from = second.data.totals.alreadyExportedFrom as Array<{ rows: number; by: { name: string } }>;
    expect(from).toHaveLength(1);
    expect(from[0]).toMatchObject({ rows: OVERLAP, by: { name: u.username } });

    const file = await u.call('GET', `/api/jobs/${String(q2.json.jobId)}/result`);
    expect(file.status).toBe(200);
    expect(file.text).toBe(out(ROWS_2.slice(OVERLAP)));
    expect(await u.used()).toBe(12 + 5);

    const runs = (await u.call('GET', `/api/mappings/${mappingId}/runs`)).json.runs as Array<
      Record<string, unknown>
    >;
    expect(runs[0]).toMatchObject({
      jobId: q2.json.jobId,
      rowsAlreadyExported: OVERLAP,
      resultUrl: `${base}/api/jobs/${String(q2.json.jobId)}/result`,
    });
  });

  it('a renamed column: 422 SOURCE_CHANGED naming it, from /api/process and the runs route; nothing written', async () => {
    const u = await business();
    const mappingId = await u.mapping('flag');
    const renamed = STATEMENT_2.replace('Amount,Balance', 'Amount (EUR),Balance');
    const r1 = await u.call('POST', '/api/process', {
      templateFileId: await u.upload('template', 'books.csv', TEMPLATE),
      dataFileId: await u.upload('data', 'renamed.csv', renamed),
      mappingId,
    });
    expect(r1.status).toBe(422);
    expect(r1.json).toMatchObject({ code: 'SOURCE_CHANGED', missing: ['Amount'] });
    expect(r1.json.error).toContain('"Amount"');
    const r2 = await u.form(`/api/mappings/${mappingId}/runs`, {}, renamed, 'renamed.csv');
    expect(r2.status).toBe(422);
    expect(r2.json).toMatchObject({ code: 'SOURCE_CHANGED', missing: ['Amount'] });
    expect(await u.used()).toBe(0);
  });

  it("another team's mapping is 404; deleting a mapping deletes its runs and fingerprints", async () => {
    const u = await business();
    const other = await business();
    const mappingId = await u.mapping('keep');
    expect((await other.call('GET', `/api/mappings/${mappingId}/runs`)).status).toBe(404);
    const foreign = await other.form(`/api/mappings/${mappingId}/runs`, {}, STATEMENT_1, 'a.csv');
    expect(foreign.status).toBe(404);
    expect(foreign.json.code).toBe('MAPPING_NOT_FOUND');

    const run = await u.form(`/api/mappings/${mappingId}/runs`, {}, STATEMENT_1, 'a.csv');
    expect(run.status).toBe(200);
    const count = async (table: string) =>
      Number(
        (
          (await db.query(`SELECT count(*) AS n FROM ${table} WHERE mapping_id = $1`, [mappingId])) as [
            { n: string },
          ]
        )[0].n,
      );
    const stored = (await db.query(
      `SELECT coalesce(sum(count), 0)::int AS n, coalesce(sum(length(fingerprints)), 0)::int AS bytes
         FROM mapping_fingerprints WHERE mapping_id = $1`,
      [mappingId],
    )) as [{ n: number; bytes: number }];
    expect(stored[0]).toEqual({ n: 12, bytes: 12 * 8 });
    expect(await count('mapping_runs')).toBe(1);
    // The team's secret is never answered: not in the mapping, its runs or the run's answer.
    const [key] = (await db.query('SELECT secret FROM team_history_keys WHERE team_id = $1', [u.userId])) as [
      { secret: Buffer },
    ];
    const hex = key.secret.toString('hex');
    const b64 = key.secret.toString('base64');
    for (const body of [
      JSON.stringify(run.json),
      (await u.call('GET', `/api/mappings/${mappingId}`)).text,
      (await u.call('GET', `/api/mappings/${mappingId}/runs`)).text,
    ]) {
      expect(body).not.toContain(hex);
      expect(body).not.toContain(b64);
    }

    expect((await u.call('DELETE', `/api/mappings/${mappingId}`)).status).toBe(204);
    expect(await count('mapping_fingerprints')).toBe(0);
    expect(await count('mapping_runs')).toBe(0);
  });
});
