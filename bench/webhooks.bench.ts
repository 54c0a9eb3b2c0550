// `npm run bench:webhooks` (needs `npm run build:server` first; never part of npm test).
// 1,000 small async jobs through the real api and worker, each announced by job.completed to a local
// receiver that answers at once. Every delivery is verified with the `standardwebhooks` package; the
// figures are throughput and the time from a job's completion (BullMQ's finishedOn, read back through
// GET /api/jobs/:id) to its delivery arriving. BENCH_JOBS, BENCH_SUBMIT_CONCURRENCY and
// BENCH_RECEIVER_DELAY_MS (a slow receiver) change the load; worker settings pass through the
// environment (e.g. WEBHOOK_CONCURRENCY=2).
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { startStack } from './support/stack';

const JOBS = Number(process.env.BENCH_JOBS ?? 1000);
const SUBMIT_CONCURRENCY = Number(process.env.BENCH_SUBMIT_CONCURRENCY ?? 8);
/** How long the receiver takes to answer (0: at once). */
const RECEIVER_DELAY_MS = Number(process.env.BENCH_RECEIVER_DELAY_MS ?? 0);

interface Arrival {
  jobId: string;
  at: number;
  messageId: string;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function main(): Promise<void> {
  const arrivals: Arrival[] = [];
  let secret = '';
  let invalid = 0;
  let last = 0;
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      setTimeout(() => res.end('ok'), RECEIVER_DELAY_MS);
      try {
        const event = new Webhook(secret).verify(Buffer.concat(chunks).toString('utf8'), {
          'webhook-id': req.headers['webhook-id'] as string,
          'webhook-timestamp': req.headers['webhook-timestamp'] as string,
          'webhook-signature': req.headers['webhook-signature'] as string,
        }) as { type: string; data: { jobId: string } };
        if (event.type === 'job.completed') {
          arrivals.push({ jobId: event.data.jobId, at, messageId: req.headers['webhook-id'] as string });
          last = at;
        }
      } catch {
        invalid += 1;
      }
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  const port = (receiver.address() as AddressInfo).port;

  const stack = await startStack({ workers: 1, env: { WEBHOOK_ALLOWED_IPS: `127.0.0.1:${port}` } });
  const { call, upload } = stack;
  try {
    const ep = (await (
      await call('/api/webhooks', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: `http://127.0.0.1:${port}/hook`, events: ['job.completed'] }),
      })
    ).json()) as { id: string; secret: string };
    secret = ep.secret;
    const tpl = await upload('template', new Blob(['Name,Amount\n']), 'template.csv');
    const rows = Array.from({ length: 20 }, (_, i) => `Item ${i},"${i},50"`).join('\n');
    const data = await upload('data', new Blob([`Product,Price\n${rows}\n`]), 'data.csv');
    const body = JSON.stringify({
      templateFileId: tpl,
      dataFileId: data,
      async: true,
      mappings: [
        { templateColumn: 'Name', dataColumn: 'Product' },
        { templateColumn: 'Amount', dataColumn: 'Price', transform: { kind: 'amount' } },
      ],
    });

    const started = Date.now();
    const jobIds: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: SUBMIT_CONCURRENCY }, async () => {
        while (next < JOBS) {
          next += 1;
          const res = await call('/api/process', {
            method: 'POST',
            // A new Idempotency-Key per request: the same body is a new job each time.
            headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
            body,
          });
          if (res.status !== 202) throw new Error(`process: ${res.status} ${await res.text()}`);
          jobIds.push(((await res.json()) as { jobId: string }).jobId);
        }
      }),
    );
    const submitted = Date.now();
    for (let i = 0; i < 1200 && arrivals.length < JOBS; i++) await new Promise((r) => setTimeout(r, 100));
    if (arrivals.length < JOBS) throw new Error(`only ${arrivals.length} of ${JOBS} deliveries arrived`);

    const finishedOn = new Map<string, number>();
    for (const id of jobIds) {
      const view = (await (await call(`/api/jobs/${id}`)).json()) as { finishedAt: string | null };
      finishedOn.set(id, Date.parse(view.finishedAt as string));
    }
    const latencies = arrivals.map((a) => a.at - (finishedOn.get(a.jobId) as number)).sort((a, b) => a - b);
    const seconds = (last - started) / 1000;
    console.table({
      jobs: { value: JOBS },
      'verified job.completed deliveries': { value: arrivals.length },
      'distinct jobs / webhook-ids': {
        value: `${new Set(arrivals.map((a) => a.jobId)).size} / ${new Set(arrivals.map((a) => a.messageId)).size}`,
      },
      'signatures that failed verification': { value: invalid },
      'submit time (s)': { value: ((submitted - started) / 1000).toFixed(2) },
      'first submit → last delivery (s)': { value: seconds.toFixed(2) },
      'deliveries / s': { value: (arrivals.length / seconds).toFixed(1) },
      'completion → delivery p50 (ms)': { value: percentile(latencies, 50) },
      'completion → delivery p95 (ms)': { value: percentile(latencies, 95) },
      'completion → delivery max (ms)': { value: latencies[latencies.length - 1] },
    });
  } finally {
    await stack.stop();
    receiver.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
