import type { INestApplication } from '@nestjs/common';
import { startLogged, stopLogged, signUpCookie, StdoutLogs } from './support/raw-http';

// Bounded JSON (issue 28, finding 2): a body nested deeper than 64 levels is refused with 400 before any
// route walks it (it used to be a 500 with a logged stack on 15 routes, /api/login included), and a `null`
// or a non-object where a mapping pair or a transform belongs is a 400 naming the field, not a 500.

const DEPTH_LIMIT = 64;

interface Answer {
  error?: string;
  code?: string;
  raw?: string;
}

function nested(depth: number, leaf: unknown = 1): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
}

describe('bounded JSON (e2e)', () => {
  let app: INestApplication;
  let port: number;
  let cookie: string;
  const logs = new StdoutLogs();
  const logLines = logs.lines;

  beforeAll(async () => {
    ({ app, port } = await startLogged(logs, { LOG_LEVEL: 'warn' }));
    ({ cookie } = await signUpCookie(app, port, 'business'));
  });
  afterAll(() => stopLogged(app, logs));

  async function post(
    path: string,
    body: string,
    signedIn = true,
  ): Promise<{ status: number; json: Answer }> {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-Requested-With': 'csv-mapper',
        ...(signedIn ? { Cookie: cookie } : {}),
      },
      body,
    });
    const text = await res.text();
    try {
      return { status: res.status, json: JSON.parse(text) as Answer };
    } catch {
      return { status: res.status, json: { raw: text } };
    }
  }

  it('refuses a body nested 3,000 levels deep with 400 on every kind of route, and logs no error', async () => {
    logLines.length = 0;
    const deep = JSON.stringify({ username: nested(3000), password: 'x' });
    for (const [path, signedIn] of [
      ['/api/login', false],
      ['/api/reset-password', false],
      ['/api/register', false],
      ['/api/process', true],
      ['/api/mappings', true],
      ['/api/webhooks', true],
    ] as const) {
      const res = await post(path, deep, signedIn);
      expect({ path, status: res.status, body: res.json }).toEqual({
        path,
        status: 400,
        body: {
          code: 'JSON_TOO_DEEP',
          error: `The request body is nested more than ${DEPTH_LIMIT} levels deep. Send a flatter JSON document.`,
        },
      });
    }
    // A deep array at the top level, and one just over the limit, are refused the same way.
    expect((await post('/api/login', JSON.stringify(nested(3001)), false)).json.code).toBe('JSON_TOO_DEEP');
    expect((await post('/api/login', JSON.stringify(nested(DEPTH_LIMIT + 1)), false)).status).toBe(400);
    // Depth inside strings does not count: brackets in a password are text.
    const bracketsInText = await post(
      '/api/login',
      JSON.stringify({ identifier: 'nobody_here', password: 'Aa1' + '[{'.repeat(40) }),
      false,
    );
    expect(bracketsInText).toEqual({
      status: 401,
      json: expect.objectContaining({ code: 'INVALID_CREDENTIALS' }),
    });
    const errors = logLines.map((l) => JSON.parse(l) as { level: number }).filter((e) => e.level >= 50);
    expect(errors).toEqual([]);
  });

  it('still reads a body exactly at the limit', async () => {
    // 64 levels is allowed: the route answers about the content (unknown field), not about depth.
    const res = await post('/api/login', JSON.stringify({ username: nested(DEPTH_LIMIT - 1) }), false);
    expect(res.status).toBe(400);
    expect(res.json.code).not.toBe('JSON_TOO_DEEP');
  });

  const pair = { templateColumn: 'Name', dataColumn: 'Name' };
  const cases: [string, (mappings: unknown) => Record<string, unknown>][] = [
    ['/api/process', (mappings) => ({ templateFileId: 't', dataFileId: 'd', mappings })],
    ['/api/process/preview', (mappings) => ({ templateFileId: 't', dataFileId: 'd', mappings })],
    ['/api/mappings', (mappings) => ({ name: 'm', templateHeaders: ['Name'], mappings })],
    ['/api/batches', (mappings) => ({ templateFileId: 't', dataFileIds: ['d'], mappings })],
  ];

  it.each(cases)(
    '%s: a null or a wrong type in mappings or a transform chain is a 400 naming the field',
    async (path, build) => {
      logLines.length = 0;
      const bad: [unknown, string][] = [
        [[null], 'mappings.0'],
        [[42], 'mappings.0'],
        [['Name'], 'mappings.0'],
        [[{ ...pair, transform: [null] }], 'mappings.0.transform.0'],
        [[{ ...pair, transform: [{ kind: 'trim' }, 7] }], 'mappings.0.transform.1'],
        [[{ ...pair, transform: null }, null], 'mappings.1'],
        [[{ ...pair, transform: ['trim'] }], 'mappings.0.transform.0'],
      ];
      for (const [mappings, field] of bad) {
        const res = await post(path, JSON.stringify(build(mappings)));
        expect({ sent: mappings, status: res.status }).toEqual({ sent: mappings, status: 400 });
        expect(res.json).toMatchObject({ code: 'VALIDATION_FAILED', error: expect.stringContaining(field) });
      }
      const errors = logLines.map((l) => JSON.parse(l) as { level: number }).filter((e) => e.level >= 50);
      expect(errors).toEqual([]);
    },
  );
});
