import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  PAYLOAD_EXAMPLE,
  RECEIVER_SOURCE,
  SAMPLE_FILES,
  SAMPLE_RESULT,
  WALKTHROUGH_STEPS,
  WALKTHROUGH_VARIABLES,
} from '../../web/src/pages/documentation/api-walkthrough';
import { H, signUp, startApp } from './support/api-test-app';
import { startWorker } from '../../worker/test/support/start-worker';
import { freePort } from '../../../bench/support/stack';

// The documentation page's API walk-through, run as a reader would: each step's command exactly as the page
// shows it, through bash with the real curl and jq, against the api on a real port and a worker; the page's
// Node receiver runs as a real process and must print a verified job.completed. Only variables are set here.

const REPO = resolve(__dirname, '../../..');
const UPPER_VAR = /\$\{?([A-Z_][A-Z0-9_]*)/g;
const ASSIGNED = /(?:^|[\s;(])([A-Z_][A-Z0-9_]*)=/gm;

interface StepResult {
  stdout: string;
  stderr: string;
  code: number | null;
}

describe('documentation walk-through (e2e, real curl, jq and node)', () => {
  let app: INestApplication;
  let worker: INestApplicationContext;
  let dir: string;
  let receiver: ChildProcess | undefined;
  let receiverLog = '';
  let receiverPort = 0;
  const vars: Record<string, string> = {};

  beforeAll(async () => {
    app = await startApp();
    await app.listen(0, '127.0.0.1');
    const apiUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    receiverPort = await freePort();
    worker = await startWorker({ WEBHOOK_ALLOWED_IPS: `127.0.0.1:${receiverPort}`, APP_URL: apiUrl });

    const { agent } = await signUp(app, 'business');
    const key = await agent.post('/api/api-keys').set(H).send({ name: 'docs walk-through' }).expect(201);
    vars.CSVM_URL = apiUrl;
    vars.CSVM_KEY = key.body.key as string;
    vars.WEBHOOK_URL = `http://127.0.0.1:${receiverPort}/csv-mapper/webhook`;

    dir = await mkdtemp(join(tmpdir(), 'csvm-docs-'));
    for (const [name, content] of Object.entries(SAMPLE_FILES)) await writeFile(join(dir, name), content);
    await writeFile(join(dir, 'receiver.js'), RECEIVER_SOURCE);
    // Stands in for the page's `npm install standardwebhooks` in the reader's directory.
    await symlink(join(REPO, 'node_modules'), join(dir, 'node_modules'));
  });

  afterAll(async () => {
    receiver?.kill();
    await worker?.close();
    await app?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** Runs one step's command as shown, in one bash with the variables so far; records what it sets. */
  async function runStep(id: string): Promise<StepResult> {
    const step = WALKTHROUGH_STEPS.find((s) => s.id === id);
    if (!step) throw new Error(`no step ${id}`);
    const out = join(dir, `.vars-${id}`);
    // Appended after the command, outside what the page shows: hand the variables it set to the next steps.
    const handOver = step.sets.map((v) => `printf '%s\\0' "$${v}" >> ${JSON.stringify(out)}`).join('\n');
    const result = await new Promise<StepResult>((ok) => {
      const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', `${step.command}\n${handOver}\n`], {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, ...vars },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.on('close', (code) => ok({ stdout, stderr, code }));
    });
    if (result.code !== 0)
      throw new Error(`step "${step.title}" exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
    if (step.sets.length) {
      const values = (await readFile(out, 'utf8')).split('\0');
      step.sets.forEach((v, i) => {
        expect(values[i]).toBeTruthy();
        expect(values[i]).not.toBe('null');
        vars[v] = values[i];
      });
    }
    return result;
  }

  async function waitForReceiver(pattern: RegExp, timeoutMs = 20_000): Promise<RegExpMatchArray> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const m = receiverLog.match(pattern);
      if (m) return m;
      if (Date.now() > until)
        throw new Error(`receiver never printed ${pattern}; it printed:\n${receiverLog}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Parsed `verified <webhook-id> <raw body>` lines the receiver printed. */
  function verifiedEvents(): { id: string; body: { type: string; data: Record<string, unknown> } }[] {
    return [...receiverLog.matchAll(/^verified (\S+) (.*)$/gm)].map((m) => ({
      id: m[1],
      body: JSON.parse(m[2]),
    }));
  }

  it('uses only the variables the page sets up or an earlier step sets', () => {
    const known = new Set(WALKTHROUGH_VARIABLES.map((v) => v.name));
    for (const step of WALKTHROUGH_STEPS) {
      const own = new Set([...step.command.matchAll(ASSIGNED)].map((m) => m[1]));
      for (const [, name] of step.command.matchAll(UPPER_VAR))
        expect({ step: step.id, uses: name, known: known.has(name) || own.has(name) }).toEqual({
          step: step.id,
          uses: name,
          known: true,
        });
      expect([...own].sort()).toEqual(expect.arrayContaining(step.sets));
      step.sets.forEach((v) => known.add(v));
    }
  });

  it('goes from an API key to a verified job.completed webhook, with the same bytes as the download', async () => {
    const register = await runStep('register-webhook');
    expect(JSON.parse(register.stdout)).toEqual({
      id: vars.WEBHOOK_ID,
      url: vars.WEBHOOK_URL,
      events: ['job.completed', 'job.failed', 'job.cancelled', 'batch.completed'],
    });
    expect(vars.WEBHOOK_SECRET).toMatch(/^whsec_/);

    // The page's receiver, run as the page says: node receiver.js with WEBHOOK_SECRET and PORT.
    receiver = spawn('node', ['receiver.js'], {
      cwd: dir,
      env: { PATH: process.env.PATH, WEBHOOK_SECRET: vars.WEBHOOK_SECRET, PORT: String(receiverPort) },
    });
    receiver.stdout!.on('data', (c: Buffer) => (receiverLog += c.toString()));
    receiver.stderr!.on('data', (c: Buffer) => (receiverLog += c.toString()));
    await waitForReceiver(/listening on port/);

    // It really verifies: a forged delivery is refused with 400.
    const forged = await fetch(vars.WEBHOOK_URL, {
      method: 'POST',
      headers: {
        'webhook-id': 'msg_forged',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': 'v1,' + Buffer.from('not the signature').toString('base64'),
      },
      body: '{"type":"job.completed"}',
    });
    expect(forged.status).toBe(400);
    await waitForReceiver(/^rejected: /m);

    const template = await runStep('upload-template');
    expect(JSON.parse(template.stdout)).toEqual({
      id: vars.TEMPLATE_ID,
      headers: ['Date', 'Customer', 'Amount'],
    });
    const data = await runStep('upload-data');
    expect(JSON.parse(data.stdout)).toMatchObject({ id: vars.DATA_ID, rowCount: 2 });

    const started = await runStep('start-job');
    expect(JSON.parse(started.stdout)).toMatchObject({ jobId: vars.JOB_ID, status: 'queued' });
    const again = await runStep('retry-job');
    expect(again.stdout).toMatch(/^idempotent-replayed: true\r?\n/im);
    expect(again.stdout.trim().split('\n').pop()).toBe(vars.JOB_ID);

    const poll = await runStep('poll-job');
    expect(JSON.parse(poll.stdout.trim().split('\n').pop() as string)).toMatchObject({
      state: 'completed',
      progress: 100,
    });

    const download = await runStep('download-result');
    expect(download.stdout).toBe(SAMPLE_RESULT);
    const resultCsv = await readFile(join(dir, 'result.csv'));
    expect(resultCsv.toString('utf8')).toBe(SAMPLE_RESULT);

    // The webhook: verified by the page's receiver, the documented payload, a resultUrl with the same bytes.
    await waitForReceiver(/^verified \S+ .*"job\.completed"/m);
    const completed = verifiedEvents().find((e) => e.body.type === 'job.completed')!;
    const example = JSON.parse(PAYLOAD_EXAMPLE) as { data: Record<string, unknown> };
    expect(Object.keys(completed.body).sort()).toEqual(['data', 'timestamp', 'type']);
    expect(Object.keys(completed.body.data).sort()).toEqual(Object.keys(example.data).sort());
    const { jobId, resultUrl, resultExpiresAt, finishedAt, ...rest } = completed.body.data;
    const {
      jobId: _j,
      resultUrl: _r,
      resultExpiresAt: _e,
      finishedAt: _f,
      ...documented
    } = example.data as Record<string, unknown>;
    expect(rest).toEqual(documented);
    expect(jobId).toBe(vars.JOB_ID);
    expect(resultUrl).toBe(`${vars.CSVM_URL}/api/jobs/${vars.JOB_ID}/result`);
    expect(Date.parse(resultExpiresAt as string)).toBeGreaterThan(Date.now());
    expect(Date.parse(finishedAt as string)).toBeLessThanOrEqual(Date.now());
    const viaWebhook = await fetch(resultUrl as string, {
      headers: { Authorization: `Bearer ${vars.CSVM_KEY}` },
    });
    expect(viaWebhook.status).toBe(200);
    expect(Buffer.from(await viaWebhook.arrayBuffer()).equals(resultCsv)).toBe(true);

    // Delivery log, then a resend: same webhook-id, so the receiver drops it as a duplicate.
    const log = await runStep('delivery-log');
    const attempts = log.stdout
      .trim()
      .split(/\n(?=\{)/)
      .map((l) => JSON.parse(l));
    expect(attempts).toContainEqual(
      expect.objectContaining({ event: 'job.completed', attempt: 1, statusCode: 200, outcome: 'succeeded' }),
    );
    // Each logged attempt has exactly the fields the OpenAPI document describes.
    const logged = JSON.parse(await readFile(join(dir, 'deliveries.json'), 'utf8')) as object[];
    const served = (await (await fetch(`${vars.CSVM_URL}/api/docs/openapi.json`)).json()) as {
      components: { schemas: Record<string, { properties: object }> };
    };
    const described = Object.keys(served.components.schemas.WebhookDeliveryView.properties).sort();
    for (const d of logged) expect(Object.keys(d).sort()).toEqual(described);
    await runStep('resend-delivery');
    await waitForReceiver(new RegExp(`^duplicate ${completed.id}: already handled$`, 'm'));

    // Rotation: the receiver still holds the old secret and verifies the test event sent after it.
    const rotate = await runStep('rotate-secret');
    expect(vars.NEW_WEBHOOK_SECRET).toMatch(/^whsec_/);
    expect(vars.NEW_WEBHOOK_SECRET).not.toBe(vars.WEBHOOK_SECRET);
    expect(rotate.stdout).toContain('previousSecretExpiresAt');
    await waitForReceiver(/^verified \S+ .*"type":"test"/m);
    expect(receiverLog.match(/^rejected: /gm)).toHaveLength(1); // the forged delivery only
  });
});
