import type { INestApplication } from '@nestjs/common';
import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { fuzzBody } from './support/fuzz-bodies';
import { startLogged, stopLogged, RawConnection, signUpCookie, sleep, StdoutLogs } from './support/raw-http';

// Fuzzing the running api (issue 18): seeded random JSON bodies to every POST/PUT/PATCH route the app
// registers (enumerated from Express's router, so new routes are fuzzed too), signed in and with a Business
// API key, plus random multipart uploads with odd framing over raw sockets. Nothing a client sends may get
// a 5xx, every 4xx is `{ error, code }` JSON, nothing is logged at error level, and the api stays up.
// Bodies nested past the JSON depth limit and nulls/wrong types in mapping and transform lists are among
// them (issue 28). Reproduce a run with FUZZ_SEED=<the printed seed>.

const SEED = Number(process.env.FUZZ_SEED ?? 18_2026);
const JSON_BODIES_PER_AUTH = Number(process.env.FUZZ_JSON_BODIES ?? 1000);
const UPLOAD_CASES = Number(process.env.FUZZ_UPLOADS ?? 1000);
/** Routes that would end the fuzz user's session or account: fuzzed against nobody's (anonymous) instead. */
const DESTRUCTIVE = ['/api/logout', '/api/user/delete-account'];
const UPLOAD_PATHS = ['/api/upload', '/api/upload/template', '/api/upload/data'];
/** Requests in flight at once. */
const LANES = 4;

type Auth = 'session' | 'apiKey' | 'anonymous';

interface Route {
  method: string;
  path: string;
}

/** Every POST/PUT/PATCH route under /api, read from the Express router the Nest app built. */
function writeRoutes(app: INestApplication): Route[] {
  const router = (app.getHttpAdapter().getInstance() as { router: { stack: unknown[] } }).router;
  const routes: Route[] = [];
  for (const layer of router.stack as { route?: { path: string; methods: Record<string, boolean> } }[]) {
    const r = layer.route;
    if (!r || !r.path.startsWith('/api/') || /[{*]/.test(r.path)) continue;
    for (const m of ['post', 'put', 'patch'])
      if (r.methods[m]) routes.push({ method: m.toUpperCase(), path: r.path });
  }
  return routes;
}

// ---- upload cases ----

interface UploadCase {
  path: string;
  auth: Auth;
  contentType: string | null;
  boundary: string;
  preamble: string;
  parts: { name: string; filename: string | null; type: string | null; content: Buffer }[];
  closeBoundary: boolean;
  truncateAt: number | null;
  lengthMode: 'exact' | 'chunked' | 'none' | 'huge' | 'negative' | 'garbage' | 'short' | 'long';
}

const fileContent = fc.oneof(
  fc
    .constantFrom(
      'Name,Email\nAna,a@example.com\n',
      'A;B\n1;2\n',
      'Name\n',
      '',
      '"unterminated,quote\n',
      '\ufeffName,City\nZoë,Köln\n',
      'a,b\u0000c\n1,2\n',
    )
    .map((s) => Buffer.from(s)),
  fc.uint8Array({ maxLength: 2048 }).map((a) => Buffer.from(a)),
  fc.constantFrom(
    Buffer.from('Name,City\nAnna,K\xf6ln\n', 'latin1'),
    Buffer.from('\ufeffA,B\n1,2\n', 'utf16le'),
    Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0]),
    Buffer.from([0x1f, 0x8b, 8, 0, 0, 0]),
    Buffer.alloc(3000, 0),
  ),
  fc.integer({ min: 1, max: 400 }).map((n) => Buffer.from('c1,c2,c3\n' + 'x,"y, z",3\n'.repeat(n))),
);
const uploadCase: fc.Arbitrary<UploadCase> = fc.record({
  path: fc.constantFrom(...UPLOAD_PATHS),
  auth: fc.constantFrom<Auth>('session', 'apiKey'),
  contentType: fc.oneof(
    { weight: 6, arbitrary: fc.constant('multipart/form-data; boundary=BOUNDARY') },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        'multipart/form-data',
        'multipart/form-data; boundary=',
        'multipart/form-data; boundary="BOUNDARY"',
        'multipart/mixed; boundary=BOUNDARY',
        'text/csv',
        'application/json',
        'application/x-www-form-urlencoded',
        'application/octet-stream',
        'multipart/form-data; boundary=BOUNDARY; charset=utf-16',
      ),
    },
    { weight: 1, arbitrary: fc.constant(null) },
  ),
  boundary: fc.oneof(
    fc.constantFrom(
      'x',
      '----WebKitFormBoundary7MA4YWxkTrZu0gW',
      "'()+_,-./:=?",
      'a'.repeat(70),
      'a'.repeat(200),
      'é',
    ),
    fc.stringMatching(/^[A-Za-z0-9'()+_,\-./:=?]{1,20}$/),
  ),
  preamble: fc.constantFrom('', '', 'preamble junk\r\n', '\r\n'),
  parts: fc.oneof(
    // Well-formed (a type field and a CSV file) half the time, so uploads also get past the framing.
    fc
      .tuple(fc.constantFrom('template', 'data'), fileContent, fc.constantFrom('in.csv', 'Export 2024.csv'))
      .map(([type, content, filename]) => [
        { name: 'type', filename: null, type: null, content: Buffer.from(type) },
        { name: 'file', filename, type: 'text/csv', content },
      ]),
    fc.array(
      fc.record({
        name: fc.constantFrom('file', 'file', 'type', 'other', '', 'fi"le', 'file[]'),
        filename: fc.oneof(
          fc.constantFrom(
            'data.csv',
            'x.CSV',
            'report.xlsx',
            '',
            '../../etc/passwd.csv',
            'ñandú.csv',
            'a'.repeat(300) + '.csv',
          ),
          fc.constant(null),
          fc.string({ maxLength: 12 }).map((s) => `${s}.csv`),
        ),
        type: fc.constantFrom('text/csv', 'application/octet-stream', 'text/plain', 'image/png', null),
        content: fc.oneof(
          fileContent,
          fc.constantFrom('template', 'data', 'nonsense', '').map((s) => Buffer.from(s)),
        ),
      }),
      { minLength: 0, maxLength: 4 },
    ),
  ),
  closeBoundary: fc.oneof(fc.constant(true), fc.boolean()),
  truncateAt: fc.option(fc.nat({ max: 600 }), { freq: 4 }),
  lengthMode: fc.constantFrom(
    'exact',
    'exact',
    'exact',
    'chunked',
    'none',
    'huge',
    'negative',
    'garbage',
    'short',
    'long',
  ),
});

/** Runs `fn` over `items` on `n` concurrent lanes (keeps the file well under 90 s on a busy 2-core box). */
async function inLanes<T>(
  n: number,
  items: T[],
  fn: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i], i);
      }
    }),
  );
}

function multipartBody(c: UploadCase): Buffer {
  const out: Buffer[] = [Buffer.from(c.preamble)];
  for (const p of c.parts) {
    let disposition = `Content-Disposition: form-data; name="${p.name}"`;
    if (p.filename !== null) disposition += `; filename="${p.filename}"`;
    out.push(
      Buffer.from(`--${c.boundary}\r\n${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`),
    );
    out.push(p.content, Buffer.from('\r\n'));
  }
  if (c.closeBoundary) out.push(Buffer.from(`--${c.boundary}--\r\n`));
  let body = Buffer.concat(out);
  if (c.truncateAt !== null && c.truncateAt < body.length) body = body.subarray(0, c.truncateAt);
  return body;
}

describe('fuzzing the api (e2e)', () => {
  let app: INestApplication;
  let port: number;
  let cookie: string;
  let apiKey: string;
  let userId: string;
  const logs = new StdoutLogs((l) => l.includes('"level":5') || l.includes('"level":6'));
  const logLines = logs.lines;
  const realWrite = logs.realWrite;
  const statuses = new Map<string, number>();
  const perGroup = new Map<string, number>();
  const failures: string[] = [];

  const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

  /** Records one answer; anything ≥ 500, or a 4xx without `{ error, code }`, is a failure to report. */
  function check(label: string, status: number | null, text: string, sent: string): void {
    count(statuses, status === null ? 'no answer' : String(status));
    if (status === null) return;
    if (status >= 500) failures.push(`${status} ${label} ${sent.slice(0, 300)} → ${text.slice(0, 200)}`);
    else if (status >= 400) {
      let parsed: { error?: unknown; code?: unknown } | null = null;
      try {
        parsed = JSON.parse(text) as { error?: unknown; code?: unknown };
      } catch {
        /* reported below */
      }
      if (typeof parsed?.error !== 'string' || typeof parsed?.code !== 'string')
        failures.push(
          `${status} without {error, code}: ${label} ${sent.slice(0, 200)} → ${text.slice(0, 200)}`,
        );
    }
  }

  beforeAll(async () => {
    ({ app, port } = await startLogged(logs, {
      LOG_LEVEL: 'warn',
      HTTP_HEADERS_TIMEOUT_MS: '2000',
      HTTP_REQUEST_TIMEOUT_MS: '3000',
      HTTP_TIMEOUT_CHECK_MS: '200',
      UPLOADS_PER_IP: '1000',
    }));
    ({ cookie, userId } = await signUpCookie(app, port, 'business'));
    const key = await fetch(`http://127.0.0.1:${port}/api/api-keys`, {
      method: 'POST',
      headers: { Cookie: cookie, 'X-Requested-With': 'csv-mapper', 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'fuzz' }),
    });
    apiKey = ((await key.json()) as { key: string }).key;
    expect(apiKey).toMatch(/^csvm_/);
    realWrite(`fuzz seed: ${SEED} (FUZZ_SEED=${SEED} reproduces this run)\n`);
  });
  afterAll(() => stopLogged(app, logs));

  function headersFor(auth: Auth): Record<string, string> {
    if (auth === 'session') return { Cookie: cookie, 'X-Requested-With': 'csv-mapper' };
    if (auth === 'apiKey') return { Authorization: `Bearer ${apiKey}` };
    return { 'X-Requested-With': 'csv-mapper' };
  }

  /** Keeps the fuzz user on Business with its key, whatever the billing routes did to it. */
  async function restoreUser(): Promise<void> {
    await app.get(DataSource).query(`UPDATE users SET plan = 'business' WHERE id = $1`, [userId]);
  }

  it(`answers ${2 * JSON_BODIES_PER_AUTH}+ random JSON bodies on every POST/PUT/PATCH route without a 5xx`, async () => {
    const routes = writeRoutes(app).filter((r) => !UPLOAD_PATHS.includes(r.path));
    expect(routes.length).toBeGreaterThan(20);
    const ids = ['00000000-0000-0000-0000-000000000000', 'abc', '1', "'", 'x'.repeat(300), '%E2%82%AC', '..'];
    const cases = fc.sample(fc.tuple(fuzzBody, fc.nat(), fc.constantFrom(...ids), fc.constantFrom(...ids)), {
      seed: SEED,
      numRuns: JSON_BODIES_PER_AUTH,
    });
    const started = Date.now();
    for (const auth of ['session', 'apiKey'] as const) {
      await inLanes(LANES, cases, async ([b, pick, id1, id2], i) => {
        const route = routes[(i + pick) % routes.length];
        const destructive = DESTRUCTIVE.includes(route.path);
        const as: Auth = destructive ? 'anonymous' : auth;
        const path = route.path
          .replace(':id', encodeURIComponent(id1))
          .replace(/:[a-zA-Z]+/, encodeURIComponent(id2));
        const raw = typeof b === 'object' && b !== null && 'raw' in b && Object.keys(b).length === 1;
        const sent = raw ? String((b as { raw: string }).raw) : JSON.stringify(b);
        const res = await fetch(`http://127.0.0.1:${port}${path}`, {
          method: route.method,
          headers: { ...headersFor(as), 'Content-Type': 'application/json' },
          body: sent,
        });
        count(perGroup, `${route.method} ${route.path} (${as})`);
        check(`${route.method} ${path} (${as})`, res.status, await res.text(), sent);
        if (i % 100 === 99) await restoreUser();
      });
    }
    realWrite(
      `fuzz JSON: ${2 * cases.length} bodies over ${routes.length} routes in ${Date.now() - started} ms\n`,
    );
    expect(failures).toEqual([]);
  });

  it(`answers ${UPLOAD_CASES}+ random upload bodies and headers without a 5xx`, async () => {
    await restoreUser();
    const cases = fc.sample(uploadCase, { seed: SEED + 1, numRuns: UPLOAD_CASES });
    const started = Date.now();
    await inLanes(LANES, cases, async (c) => {
      const bodyBytes = multipartBody(c);
      const lines = [`POST ${c.path} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close'];
      for (const [k, v] of Object.entries(headersFor(c.auth))) lines.push(`${k}: ${v}`);
      if (c.contentType) lines.push(`Content-Type: ${c.contentType.replace('BOUNDARY', c.boundary)}`);
      let payload = bodyBytes;
      switch (c.lengthMode) {
        case 'exact':
          lines.push(`Content-Length: ${bodyBytes.length}`);
          break;
        case 'chunked':
          lines.push('Transfer-Encoding: chunked');
          payload = Buffer.concat([
            Buffer.from(`${bodyBytes.length.toString(16)}\r\n`),
            bodyBytes,
            Buffer.from(bodyBytes.length ? '\r\n0\r\n\r\n' : '\r\n'),
          ]);
          break;
        case 'huge':
          lines.push('Content-Length: 99999999999999');
          break;
        case 'negative':
          lines.push('Content-Length: -5');
          break;
        case 'garbage':
          lines.push('Content-Length: 12abc');
          break;
        case 'short':
          lines.push(`Content-Length: ${Math.floor(bodyBytes.length / 2)}`);
          break;
        case 'long':
          lines.push(`Content-Length: ${bodyBytes.length + 100}`);
          break;
        case 'none':
          break;
      }
      const conn = new RawConnection(port);
      await conn.write(Buffer.concat([Buffer.from(lines.join('\r\n') + '\r\n\r\n'), payload]));
      // A body shorter than declared never completes: the client gives up (half-close), as a real one would.
      if (c.lengthMode === 'huge' || c.lengthMode === 'long') conn.socket.end();
      const res = await conn.waitForAnswer(2500);
      conn.destroy();
      await conn.closed;
      count(perGroup, `POST ${c.path} (${c.auth}, upload)`);
      if (!res) count(perGroup, `(upload with no answer: ${c.lengthMode} length)`);
      const shown = `${c.lengthMode} ${c.contentType ?? '(no type)'} ${bodyBytes.toString('latin1')}`;
      check(`POST ${c.path} (${c.auth}, ${c.lengthMode})`, res?.status ?? null, res?.body ?? '', shown);
    });
    realWrite(`fuzz uploads: ${cases.length} raw requests in ${Date.now() - started} ms\n`);
    expect(failures).toEqual([]);
  }, 120_000);

  it('leaves the api healthy, logs no error, and prints the counts', async () => {
    await sleep(300);
    const health = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(health.status).toBe(200);
    const histogram = [...statuses.entries()].sort().map(([s, n]) => `  ${s}: ${n}`);
    const groups = [...perGroup.entries()].sort().map(([g, n]) => `  ${n}\t${g}`);
    realWrite(
      `fuzz statuses:\n${histogram.join('\n')}\nfuzz requests per route group:\n${groups.join('\n')}\n`,
    );
    const total = [...statuses.values()].reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThanOrEqual(2 * JSON_BODIES_PER_AUTH + UPLOAD_CASES);
    expect(logLines.map((l) => l.slice(0, 600))).toEqual([]);
  });
});
