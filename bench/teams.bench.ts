// `npm run bench:teams` (needs `npm run build:server` first; never part of npm test).
// A team of 5 (an Enterprise account holder and 4 members) each upload a 100k-row file and run it as a
// background job at the same moment, through the real api and one worker, then download the results.
// Reports wall time, each member's time, peak RSS of api and worker, and checks that the usage history
// names who ran each job and that the team's monthly count holds all five.
import { openAsBlob, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from './engine/generate';
import { H, rssMb, startStack } from './support/stack';

const MAPPINGS = [
  { templateColumn: 'Customer', dataColumn: 'Customer Name' },
  { templateColumn: 'Amount', dataColumn: 'Betrag', transform: { kind: 'number', decimalSeparator: ',' } },
  { templateColumn: 'Email', dataColumn: 'E-mail' },
];
const ROWS = 100_000;
const MEMBERS = 5;

async function main(): Promise<void> {
  // All five members send from this machine's one address: lift the per-address upload cap.
  const stack = await startStack({ workers: 1, env: { UPLOADS_PER_IP: '20' } });
  const { api, workers, pg, base } = stack;
  const file = join(tmpdir(), `csvm-bench-team-${process.pid}.csv`);
  try {
    await generate(file, ROWS);
    // Four more accounts join the holder's team (membership written directly: the invitation path is
    // what the e2e tests prove; this measures the team working together).
    const cookies: string[] = [];
    const ids: string[] = [stack.userId];
    for (let i = 1; i < MEMBERS; i++) {
      const username = `member_${i}_${Date.now().toString(36)}`;
      const reg = await fetch(`${base}/api/register`, {
        method: 'POST',
        headers: { ...H, 'content-type': 'application/json' },
        body: JSON.stringify({ username, email: `${username}@example.com`, password: 'Tr1cky-Mapper!' }),
      });
      if (reg.status !== 201) throw new Error(`register: ${reg.status} ${await reg.text()}`);
      cookies.push((reg.headers.get('set-cookie') ?? '').split(';')[0]);
      const { rows } = await pg.query(
        `UPDATE team_memberships SET team_id = $2, role = 'member' WHERE user_id = (SELECT id FROM users WHERE username = $1) RETURNING user_id`,
        [username, stack.userId],
      );
      ids.push(rows[0].user_id as string);
    }
    const callers = [
      stack.call,
      ...cookies.map(
        (cookie) =>
          (path: string, init: RequestInit = {}) =>
            fetch(`${base}${path}`, { ...init, headers: { ...H, cookie, ...(init.headers ?? {}) } }),
      ),
    ];

    let peakApi = 0;
    let peakWorker = 0;
    const timer = setInterval(() => {
      peakApi = Math.max(peakApi, rssMb(api.pid as number));
      peakWorker = Math.max(peakWorker, ...workers.map((w) => rssMb(w.pid as number)));
    }, 100);

    const t0 = performance.now();
    const perMember = await Promise.all(
      callers.map(async (call, i) => {
        const start = performance.now();
        const upload = async (type: string, blob: Blob, name: string) => {
          const form = new FormData();
          form.append('type', type);
          form.append('file', blob, name);
          const res = await call('/api/upload', { method: 'POST', body: form });
          if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
          return ((await res.json()) as { id: string }).id;
        };
        const tpl = await upload('template', new Blob(['Customer,Amount,Email\n']), 't.csv');
        const data = await upload('data', await openAsBlob(file), `member-${i}.csv`);
        const q = await call('/api/process', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ templateFileId: tpl, dataFileId: data, mappings: MAPPINGS, async: true }),
        });
        if (q.status !== 202) throw new Error(`process: ${q.status} ${await q.text()}`);
        const { jobId } = (await q.json()) as { jobId: string };
        let view: { state: string; resultUrl: string | null; error: string | null };
        do {
          await new Promise((r) => setTimeout(r, 200));
          view = (await (await call(`/api/jobs/${jobId}`)).json()) as typeof view;
        } while (view.state === 'queued' || view.state === 'active');
        if (view.state !== 'completed') throw new Error(`job ${view.state}: ${view.error}`);
        const res = await call(view.resultUrl as string);
        let bytes = 0;
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
        return { seconds: (performance.now() - start) / 1000, bytes };
      }),
    );
    const total = (performance.now() - t0) / 1000;
    clearInterval(timer);

    const usage = await pg.query(
      `SELECT count(*)::int AS n, count(DISTINCT user_id)::int AS who, sum(rows_processed)::int AS rows
         FROM usage_history WHERE team_id = $1`,
      [stack.userId],
    );
    const count = await pg.query(`SELECT monthly_rows_used FROM users WHERE id = $1`, [stack.userId]);
    console.table(
      perMember.map((m, i) => ({
        member: i,
        seconds: m.seconds.toFixed(2),
        'MB out': (m.bytes / 1e6).toFixed(1),
      })),
    );
    console.log(
      `team of ${MEMBERS}, ${MEMBERS} × ${ROWS.toLocaleString()} rows at once on 1 worker: ${total.toFixed(2)} s | ` +
        `peak RSS api ${peakApi.toFixed(0)} MB, worker ${peakWorker.toFixed(0)} MB | usage rows ${usage.rows[0].n} ` +
        `by ${usage.rows[0].who} people, ${usage.rows[0].rows} rows; team monthly count ${count.rows[0].monthly_rows_used}`,
    );
  } finally {
    rmSync(file, { force: true });
    await stack.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
