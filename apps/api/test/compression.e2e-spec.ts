import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { signUp, startApp } from './support/api-test-app';
import { runKundenJob } from './support/kunden';
import { startWorker } from '../../worker/test/support/start-worker';

// Compressed responses through real HTTP (raw node:http, which never decodes, so the bytes on the wire are
// what is checked): the web build's .br/.gz copies made by the build step, JSON compressed on the fly, and
// CSV downloads left alone.

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

describe('compressed responses (real HTTP)', () => {
  let app: INestApplication;
  let worker: INestApplicationContext;
  let webDist: string;
  let port: number;
  const js = `export const rows = [${Array.from({ length: 400 }, (_, i) => `{ id: ${i}, label: "row ${i}" }`).join(', ')}];\n`;
  const html = `<!doctype html><html><head><title>CSV Mapper</title></head><body><div id="root">${'<p>Map any CSV export.</p>'.repeat(200)}</div><script type="module" src="/assets/index-abc.js"></script></body></html>`;

  beforeAll(async () => {
    webDist = mkdtempSync(join(tmpdir(), 'csvm-web-gz-'));
    mkdirSync(join(webDist, 'assets'));
    writeFileSync(join(webDist, 'index.html'), html);
    writeFileSync(join(webDist, 'app.html'), html.replace('Map any CSV export.', 'Loading.'));
    writeFileSync(join(webDist, 'assets', 'index-abc.js'), js);
    writeFileSync(join(webDist, 'assets', 'tiny.js'), 'console.log(1)');
    writeFileSync(join(webDist, 'logo.png'), Buffer.alloc(4096, 7));
    // The real build step, on this small build.
    execFileSync(process.execPath, [resolve(__dirname, '../../../scripts/precompress-web.js'), webDist]);
    app = await startApp({ WEB_DIST: webDist, SYNC_ROW_LIMIT: '5' });
    await app.listen(0, '127.0.0.1');
    port = (app.getHttpServer().address() as AddressInfo).port;
    worker = await startWorker();
  });
  afterAll(async () => {
    await worker?.close();
    await app?.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  function get(path: string, headers: Record<string, string> = {}): Promise<Raw> {
    return new Promise((resolveRaw, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolveRaw({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  }

  const vary = (r: Raw) => String(r.headers.vary ?? '').toLowerCase();

  it('writes .br and .gz copies of text assets at build time, not of tiny files or images', () => {
    const index = readFileSync(join(webDist, 'index.html'));
    expect(brotliDecompressSync(readFileSync(join(webDist, 'index.html.br')))).toEqual(index);
    expect(gunzipSync(readFileSync(join(webDist, 'index.html.gz')))).toEqual(index);
    expect(() => readFileSync(join(webDist, 'assets', 'tiny.js.br'))).toThrow();
    expect(() => readFileSync(join(webDist, 'logo.png.br'))).toThrow();
  });

  it('serves the landing page as Brotli to a browser that accepts it, gzip to one that takes only gzip', async () => {
    const br = await get('/', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^text\/html/);
    expect(vary(br)).toContain('accept-encoding');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(html.length / 5);
    expect(brotliDecompressSync(br.body).toString()).toBe(html);

    const gz = await get('/', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(html);

    const none = await get('/');
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(vary(none)).toContain('accept-encoding');
    expect(none.body.toString()).toBe(html);

    // Refused by q=0: the next acceptable one is sent.
    const noBr = await get('/', { 'accept-encoding': 'br;q=0, gzip;q=0.5' });
    expect(noBr.headers['content-encoding']).toBe('gzip');
  });

  it('serves the app shell and hashed JS precompressed, with their own type and cache headers', async () => {
    const shell = await get('/mapper', { 'accept-encoding': 'br' });
    expect(shell.headers['content-encoding']).toBe('br');
    expect(shell.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(shell.body).toString()).toBe(readFileSync(join(webDist, 'app.html'), 'utf8'));

    const script = await get('/assets/index-abc.js', { 'accept-encoding': 'gzip, br' });
    expect(script.status).toBe(200);
    expect(script.headers['content-encoding']).toBe('br');
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(script.headers['accept-ranges']).toBeUndefined();
    expect(brotliDecompressSync(script.body).toString()).toBe(js);

    const tiny = await get('/assets/tiny.js', { 'accept-encoding': 'br' });
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body.toString()).toBe('console.log(1)');

    const png = await get('/logo.png', { 'accept-encoding': 'br, gzip' });
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.body.length).toBe(4096);
  });

  it('compresses JSON of 1 KB or more on the fly, and leaves small JSON alone', async () => {
    const plain = await get('/api/plans');
    expect(plain.status).toBe(200);
    expect(plain.body.length).toBeGreaterThan(1024);
    const br = await get('/api/plans', { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(vary(br)).toContain('accept-encoding');
    expect(br.body.length).toBeLessThan(plain.body.length);
    expect(JSON.parse(brotliDecompressSync(br.body).toString())).toEqual(JSON.parse(plain.body.toString()));
    const gz = await get('/api/plans', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.body).toString())).toEqual(JSON.parse(plain.body.toString()));

    const small = await get('/api/health', { 'accept-encoding': 'br, gzip' });
    expect(small.status).toBe(200);
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('never compresses a CSV result download', async () => {
    const { agent } = await signUp(app, 'business');
    const { view } = await runKundenJob(agent, 300, 0);
    expect(view.state).toBe('completed');
    // supertest would decode a compressed body, but the header says what was sent.
    const csv = await agent.get(view.resultUrl).set('Accept-Encoding', 'br, gzip').expect(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-encoding']).toBeUndefined();
    expect(csv.text.length).toBeGreaterThan(1024);
    expect(csv.text.split(/\r?\n/).slice(0, 2)).toEqual(['Name,Amount', 'Kunde 0,0.50']);
  });
});
