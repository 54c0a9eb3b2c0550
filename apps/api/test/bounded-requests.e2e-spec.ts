import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import {
  chunk,
  csvBytes,
  startLogged,
  stopLogged,
  RawConnection,
  signUpCookie,
  sleep,
  uploadHead,
  StdoutLogs,
} from './support/raw-http';

// Bounded requests (issue 18): an oversize upload is refused before its body is read, chunked bodies are cut
// at the limit, slow clients are cut off by the server timeouts (shortened here by env), one IP cannot hold
// more than UPLOADS_PER_IP uploads open, and an abandoned upload is logged as a 499 warning, not a 500.

const MB = 1024 * 1024;
const HEADERS_TIMEOUT_MS = 1000;
const REQUEST_TIMEOUT_MS = 3000;

describe('bounded requests (e2e)', () => {
  let app: INestApplication;
  let port: number;
  const logs = new StdoutLogs();
  const logLines = logs.lines;

  beforeAll(async () => {
    ({ app, port } = await startLogged(logs, {
      LOG_LEVEL: 'info',
      HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      HTTP_TIMEOUT_CHECK_MS: '100',
      UPLOADS_PER_IP: '4',
      MEMORY_STORE_MAX_FILE_MB: '2',
    }));
  });
  afterAll(() => stopLogged(app, logs));

  it('answers 413 to a declared 50 MB upload from a Free user before the body is sent, and hangs up', async () => {
    const { cookie } = await signUpCookie(app, port);
    const { head, partHead } = uploadHead({ path: '/api/upload/data', cookie, contentLength: 50 * MB });
    const c = new RawConnection(port);
    await c.write(head);
    await c.write(partHead + csvBytes(4096).toString());
    const res = await c.waitForAnswer(3000);
    const sentWhenAnswered = c.sent;
    expect(res?.status).toBe(413);
    expect(res?.at).toBeLessThan(2000);
    expect(sentWhenAnswered).toBeLessThan(8 * 1024);
    expect(JSON.parse(res?.body ?? '{}')).toMatchObject({
      code: 'FILE_TOO_LARGE',
      error: 'File size (50.00 MB) exceeds your plan limit of 1 MB',
    });
    expect(res?.headers.connection).toBe('close');
    // The server closes the connection instead of reading the other 49.99 MB.
    await Promise.race([c.closed, sleep(2000)]);
    expect(c.closedAt).not.toBeNull();
  });

  it('cuts a chunked upload off once it passes the limit (Free: 1 MB), quoting "over" the size', async () => {
    const { cookie } = await signUpCookie(app, port);
    const { head, partHead } = uploadHead({ path: '/api/upload/data', cookie, chunked: true });
    const c = new RawConnection(port);
    await c.write(head);
    await c.write(chunk(partHead));
    // 64 KB every 10 ms, until the server answers or 8 MB have gone.
    while (!c.answered && c.closedAt === null && c.sent < 8 * MB) {
      await c.write(chunk(csvBytes(64 * 1024)));
      await sleep(10);
    }
    const res = await c.waitForAnswer(2000);
    expect(res?.status).toBe(413);
    expect(JSON.parse(res?.body ?? '{}')).toMatchObject({
      code: 'FILE_TOO_LARGE',
      error: expect.stringMatching(/^File size \(over 1\.\d\d MB\) exceeds your plan limit of 1 MB$/),
    });
    // Answered after little more than the limit (socket buffers hold some), far before 8 MB.
    expect(c.sent).toBeLessThan(4 * MB);
    await Promise.race([c.closed, sleep(2000)]);
    expect(c.closedAt).not.toBeNull();
  });

  it('caps "unlimited" Enterprise files at MEMORY_STORE_MAX_FILE_MB (2 MB here) with a 413 that says how to raise it', async () => {
    const { cookie } = await signUpCookie(app, port, 'enterprise');
    const server = app.getHttpServer();
    // Declared well over the ceiling: refused from Content-Length; just over it: cut while streaming.
    for (const size of [Math.round(2.6 * MB), Math.round(2.1 * MB)]) {
      const res = await request(server)
        .post('/api/upload/data')
        .set('Cookie', cookie)
        .set('X-Requested-With', 'csv-mapper')
        .attach('file', csvBytes(size), { filename: 'big.csv', contentType: 'text/csv' })
        .catch((err: { response?: request.Response }) => err.response as request.Response);
      expect(res.status).toBe(413);
      expect(res.body.code).toBe('FILE_TOO_LARGE');
      expect(res.body.error).toContain('MEMORY_STORE_MAX_FILE_MB');
      expect(res.body.error).toContain('BLOB_STORE=s3');
      expect(res.body.error).toContain('(2 MB)');
    }
    // Within the ceiling it is stored as before.
    const ok = await request(server)
      .post('/api/upload/data')
      .set('Cookie', cookie)
      .set('X-Requested-With', 'csv-mapper')
      .attach('file', Buffer.from('A,B\n1,2\n'), { filename: 'small.csv', contentType: 'text/csv' });
    expect(ok.status).toBe(201);
    // A declared 1 GiB trickle from Enterprise is refused at once too.
    const { head, partHead } = uploadHead({ path: '/api/upload/data', cookie, contentLength: 1024 * MB });
    const c = new RawConnection(port);
    await c.write(head + partHead);
    const big = await c.waitForAnswer(2000);
    expect(big?.status).toBe(413);
    c.destroy();
  });

  it('lets one IP hold 4 uploads open; the 5th gets 429 with Retry-After, and a slot frees when one ends', async () => {
    const { cookie } = await signUpCookie(app, port);
    const open: RawConnection[] = [];
    for (let i = 0; i < 4; i++) {
      const { head, partHead } = uploadHead({ path: '/api/upload/data', cookie, contentLength: 100_000 });
      const c = new RawConnection(port);
      await c.write(head + partHead + 'Name,Email\n');
      open.push(c);
    }
    await sleep(200);
    expect(open.every((c) => !c.answered)).toBe(true);
    const fifth = await request(app.getHttpServer())
      .post('/api/upload/data')
      .set('Cookie', cookie)
      .set('X-Requested-With', 'csv-mapper')
      .attach('file', Buffer.from('A,B\n1,2\n'), { filename: 'x.csv', contentType: 'text/csv' });
    expect(fifth.status).toBe(429);
    expect(fifth.headers['retry-after']).toBe('5');
    expect(fifth.body).toMatchObject({
      code: 'TOO_MANY_UPLOADS',
      error: expect.stringContaining('4 uploads'),
    });
    open[0].destroy();
    await open[0].closed;
    await sleep(100);
    const next = await request(app.getHttpServer())
      .post('/api/upload/data')
      .set('Cookie', cookie)
      .set('X-Requested-With', 'csv-mapper')
      .attach('file', Buffer.from('A,B\n1,2\n'), { filename: 'x.csv', contentType: 'text/csv' });
    expect(next.status).toBe(201);
    for (const c of open) c.destroy();
    await Promise.all(open.map((c) => c.closed));
  });

  it('cuts off slow-loris clients (headers trickled; a body trickled) while a normal user is served', async () => {
    const { cookie } = await signUpCookie(app, port);
    // Headers, one line every 200 ms, never finished.
    const loris = new RawConnection(port);
    await loris.write('POST /api/upload/data HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const trickleHeaders = (async () => {
      for (let i = 0; i < 50 && loris.closedAt === null; i++) {
        await loris.write(`X-Slow-${i}: 1\r\n`);
        await sleep(200);
      }
    })();
    // A 500 KB body (within the Free limit), 100 bytes every 200 ms.
    const { head, partHead } = uploadHead({ path: '/api/upload/data', cookie, contentLength: 500_000 });
    const slowBody = new RawConnection(port);
    await slowBody.write(head + partHead + 'Name,Email\n');
    const trickleBody = (async () => {
      for (let i = 0; i < 100 && slowBody.closedAt === null; i++) {
        await slowBody.write(csvBytes(100));
        await sleep(200);
      }
    })();
    // Meanwhile a normal user uploads and is answered.
    await sleep(300);
    const normal = await request(app.getHttpServer())
      .post('/api/upload/data')
      .set('Cookie', (await signUpCookie(app, port)).cookie)
      .set('X-Requested-With', 'csv-mapper')
      .attach('file', Buffer.from('A,B\n1,2\n'), { filename: 'ok.csv', contentType: 'text/csv' });
    expect(normal.status).toBe(201);
    await Promise.all([trickleHeaders, trickleBody]);
    expect(loris.closedAt).not.toBeNull();
    expect(loris.closedAt as number).toBeLessThan(HEADERS_TIMEOUT_MS + 1000);
    expect(loris.response()?.status).toBe(408);
    expect(JSON.parse(loris.response()?.body ?? '{}')).toMatchObject({ code: 'REQUEST_TIMEOUT' });
    expect(slowBody.closedAt).not.toBeNull();
    expect(slowBody.closedAt as number).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
    expect(slowBody.closedAt as number).toBeLessThan(REQUEST_TIMEOUT_MS + 1000);
  });

  it('logs an upload the client abandons half way as a 499 warning, with no 500 or error entry', async () => {
    const { cookie } = await signUpCookie(app, port);
    await sleep(200);
    logLines.length = 0;
    const { head, partHead } = uploadHead({ path: '/api/upload/data', cookie, contentLength: 200_000 });
    const c = new RawConnection(port);
    await c.write(head + partHead + 'Name,Email\n' + csvBytes(100_000 - 11).toString());
    await sleep(200);
    c.destroy();
    await c.closed;
    await sleep(500);
    const entries = logLines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const mine = entries.filter((e) => (e.req as { url?: string } | undefined)?.url === '/api/upload/data');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ level: 40, status: 499, clientAborted: true, msg: 'request aborted' });
    // No error-level entry (pino: 50+) and no 5xx anywhere in the log of that request.
    expect(entries.filter((e) => (e.level as number) >= 50)).toEqual([]);
    expect(
      entries.some((e) => ((e.res as { statusCode?: number } | undefined)?.statusCode ?? 0) >= 500),
    ).toBe(false);
  });
});
