import type { INestApplication } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { DataSource } from 'typeorm';
import { startApp } from './api-test-app';
import { sleep } from './poll';

// Raw HTTP for specs that need what supertest hides: headers and body sent separately, trickled or cut off,
// and the moment the answer arrives measured.

/** Starts the app on an ephemeral loopback port (the server timeouts only act on a listening server). */
export async function listen(app: INestApplication): Promise<number> {
  await app.listen(0, '127.0.0.1');
  return (app.getHttpServer().address() as AddressInfo).port;
}

/**
 * The api on a loopback port (`listen`) with its JSON log captured in `logs`, started first: pino writes to
 * process.stdout when its write has been replaced. `stopLogged` closes both.
 */
export async function startLogged(
  logs: StdoutLogs,
  env: Record<string, string>,
): Promise<{ app: INestApplication; port: number }> {
  logs.start();
  const app = await startApp(env);
  return { app, port: await listen(app) };
}

export async function stopLogged(app: INestApplication | undefined, logs: StdoutLogs): Promise<void> {
  await app?.close();
  logs.stop();
}

/** Signs a fresh user up over HTTP and returns its session cookie (optionally on another plan). */
export async function signUpCookie(
  app: INestApplication,
  port: number,
  plan?: string,
): Promise<{ cookie: string; userId: string }> {
  const username = `r_${randomBytes(5).toString('hex')}`;
  const res = await fetch(`http://127.0.0.1:${port}/api/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'csv-mapper' },
    body: JSON.stringify({
      username,
      email: `${username}@example.com`,
      password: 'Tr1cky-Mapper!',
      firstName: 'Ana',
      lastName: 'Test',
    }),
  });
  if (res.status >= 300) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const db = app.get(DataSource);
  const [row] = (await db.query('SELECT id FROM users WHERE username = $1', [username])) as { id: string }[];
  if (plan) await db.query('UPDATE users SET plan = $2 WHERE id = $1', [row.id, plan]);
  return { cookie, userId: row.id };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** ms from open() to the first byte of the answer. */
  at: number;
}

/** One raw connection: write what you like, read the answer (if any) and see when the server closed it. */
export class RawConnection {
  readonly socket: Socket;
  readonly opened = Date.now();
  /** Bytes handed to the socket so far. */
  sent = 0;
  closedAt: number | null = null;
  private data = Buffer.alloc(0);
  private firstByteAt: number | null = null;
  readonly closed: Promise<number>;

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.setNoDelay(true);
    this.socket.on('data', (d: Buffer) => {
      this.firstByteAt ??= Date.now() - this.opened;
      this.data = Buffer.concat([this.data, d]);
    });
    this.socket.on('error', () => undefined); // EPIPE/ECONNRESET once the server has hung up
    this.closed = new Promise((resolve) =>
      this.socket.on('close', () => {
        this.closedAt = Date.now() - this.opened;
        resolve(this.closedAt);
      }),
    );
  }

  /** Writes and waits for the socket to take the bytes (false when the server has closed it). */
  async write(chunk: string | Buffer): Promise<boolean> {
    if (this.socket.destroyed || this.socket.writableEnded) return false;
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk;
    this.sent += buf.length;
    const more = this.socket.write(buf);
    if (!more) {
      await Promise.race([
        new Promise((r) => this.socket.once('drain', r)),
        this.closed,
        new Promise((r) => setTimeout(r, 1000)),
      ]);
    }
    return !this.socket.destroyed;
  }

  get answered(): boolean {
    return this.data.includes('\r\n\r\n');
  }

  /** The answer parsed so far (status line, headers and body as received), or null before any byte. */
  response(): RawResponse | null {
    const end = this.data.indexOf('\r\n\r\n');
    if (end < 0) return null;
    const [statusLine, ...lines] = this.data.subarray(0, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const l of lines) {
      const i = l.indexOf(':');
      headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
    }
    return {
      status: Number(statusLine.split(' ')[1]),
      headers,
      body: this.data.subarray(end + 4).toString('utf8'),
      at: this.firstByteAt as number,
    };
  }

  /** Waits until the answer's headers arrived or the socket closed, at most `ms`. */
  async waitForAnswer(ms: number): Promise<RawResponse | null> {
    const deadline = Date.now() + ms;
    while (!this.answered && this.closedAt === null && Date.now() < deadline) await sleep(10);
    // Then the whole body: as long as Content-Length says, or until the server closes.
    const complete = () => {
      const r = this.response();
      const length = Number(r?.headers['content-length'] ?? NaN);
      return !r || (Number.isFinite(length) && Buffer.byteLength(r.body) >= length);
    };
    while (!complete() && this.closedAt === null && Date.now() < deadline) await sleep(10);
    return this.response();
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/** The head of a multipart upload of one file; the caller writes the file bytes after it. */
export function uploadHead(opts: {
  path: string;
  cookie?: string;
  bearer?: string;
  contentLength?: number;
  chunked?: boolean;
  boundary?: string;
  filename?: string;
}): { head: string; partHead: string } {
  const boundary = opts.boundary ?? 'raw-boundary-7d1f';
  const partHead =
    `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\ndata\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${opts.filename ?? 'big.csv'}"\r\n` +
    `Content-Type: text/csv\r\n\r\n`;
  const lines = [
    `POST ${opts.path} HTTP/1.1`,
    'Host: 127.0.0.1',
    'X-Requested-With: csv-mapper',
    `Content-Type: multipart/form-data; boundary=${boundary}`,
  ];
  if (opts.cookie) lines.push(`Cookie: ${opts.cookie}`);
  if (opts.bearer) lines.push(`Authorization: Bearer ${opts.bearer}`);
  if (opts.chunked) lines.push('Transfer-Encoding: chunked');
  else if (opts.contentLength !== undefined) lines.push(`Content-Length: ${opts.contentLength}`);
  return { head: lines.join('\r\n') + '\r\n\r\n', partHead };
}

/** One chunk of a chunked body. */
export function chunk(data: string | Buffer): Buffer {
  const buf = typeof data === 'string' ? Buffer.from(data) : data;
  return Buffer.concat([Buffer.from(`${buf.length.toString(16)}\r\n`), buf, Buffer.from('\r\n')]);
}

export { sleep };

/** CSV-looking filler: `n` bytes of "a,b\n" lines. */
export function csvBytes(n: number): Buffer {
  return Buffer.alloc(n, 'a,b\n');
}

/**
 * The api's JSON log lines, as pino writes them to process.stdout while `start()`ed: lines that begin with `{`
 * (and that `keep` accepts) are kept in `lines` instead of printed; any other output still prints.
 */
export class StdoutLogs {
  readonly lines: string[] = [];
  readonly realWrite = process.stdout.write.bind(process.stdout);
  constructor(private readonly keep: (line: string) => boolean = Boolean) {}

  start(): void {
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      if (text.startsWith('{')) {
        this.lines.push(...text.split('\n').filter((l) => l && this.keep(l)));
        return true;
      }
      return (this.realWrite as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stdout.write;
  }

  stop(): void {
    process.stdout.write = this.realWrite;
  }
}
