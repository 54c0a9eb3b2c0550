import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { existsSync, readdirSync } from 'node:fs';
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { join, resolve } from 'node:path';
import { assertNoEviction, blobStoreOrigin, createRedis, isInfrastructureError } from '@csv-mapper/queue';
import { mountQueueBoard } from './admin/queue-board';
import { AppModule } from './app.module';
import { OpenApiDocument } from './docs/openapi.service';
import { installSessions } from './auth/session.setup';
import { loadAppRoutes } from './common/app-routes';
import { dynamicCompression, PrecompressedAssets } from './common/compression';
import { verifyJsonBody } from './common/json-depth';
import { bodyTimeout, requestsPerIp } from './common/request-bounds.middleware';
import { rejectNulCharacters } from './common/text-input.middleware';
import { ApiConfig } from './config/api.config';

/** Repo root, whether we run from apps/api/src (ts) or dist/apps/api/src (js). */
function repoRoot(): string {
  let dir = __dirname;
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'apps'))) return dir;
    dir = resolve(dir, '..');
  }
  return process.cwd();
}

export class StartupError extends Error {
  /** `unreachable`: Postgres or Redis did not answer (the api waits for them) rather than being misconfigured. */
  constructor(
    message: string,
    readonly unreachable = false,
  ) {
    super(message);
  }
}

/** Checks that Postgres and Redis answer before Nest starts, so failures are one clear line each. */
export async function preflight(config: ApiConfig): Promise<void> {
  const redis = createRedis(
    config.redisUrl,
    'command',
    { lazyConnect: true, retryStrategy: () => null },
    config.redisClusterNodes,
  );
  try {
    await redis.connect();
    if (config.checkRedisPolicy) await assertNoEviction(redis);
  } catch (err) {
    const msg = (err as Error).message;
    if (msg.includes('maxmemory-policy')) throw new StartupError(msg);
    throw new StartupError(
      `Cannot reach Redis at ${redact(config.redisUrl)} (${msg}). Start it with: docker compose up -d redis ` +
        `(or: redis-server --daemonize yes --port 6379)`,
      true,
    );
  } finally {
    redis.disconnect();
  }
  const { Client } = await import('pg');
  const pg = new Client({ connectionString: config.databaseUrl, connectionTimeoutMillis: 3000 });
  try {
    await pg.connect();
    await pg.query('SELECT 1');
  } catch (err) {
    throw new StartupError(
      `Cannot reach Postgres at ${redact(config.databaseUrl)} (${(err as Error).message}). ` +
        `Start it with: docker compose up -d postgres`,
      postgresUnreachable(err),
    );
  } finally {
    await pg.end().catch(() => undefined);
  }
}

/** Down, refusing, starting up or not answering — not a missing database or refused login (those exit). */
function postgresUnreachable(err: unknown): boolean {
  if (isInfrastructureError(err)) return true;
  const code = (err as { code?: unknown }).code;
  return !(typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code));
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}

/** Builds the api application (used by main.ts and by the e2e tests). */
export async function createApiApp(config: ApiConfig): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bufferLogs: true,
    rawBody: true,
  });
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('query parser', 'simple');
  // First of all, so a flood is refused before any work and a trickled body is cut at HTTP_BODY_TIMEOUT_MS.
  app.use(requestsPerIp(config.requestsPerIp));
  app.use(bodyTimeout(config.http.bodyTimeout));
  const storageOrigin = blobStoreOrigin(config.blobStore);
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          fontSrc: ["'self'", 'data:'],
          // Enterprise direct uploads PUT from the browser straight to object storage.
          connectSrc: ["'self'", ...(storageOrigin ? [storageOrigin] : [])],
          objectSrc: ["'none'"],
          frameAncestors: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          upgradeInsecureRequests: config.isProduction ? [] : null,
        },
      },
      hsts: config.isProduction,
    }),
  );
  // Before every route: JSON answers of 1 KB or more leave compressed (CSV and downloads never are).
  app.use(dynamicCompression());
  app.setGlobalPrefix('api', { exclude: [] });
  await app.get(OpenApiDocument).build(app);
  // Nest's useBodyParser would replace `verify` with its own rawBody hook: verifyJsonBody keeps rawBody too
  // and refuses JSON nested deeper than 64 levels before it is parsed.
  app.use(express.json({ limit: '2mb', verify: verifyJsonBody }));
  // Registered here (Nest would add it later, after this point) so the NUL check below sees form bodies too.
  app.useBodyParser('urlencoded', { extended: true });
  app.use(rejectNulCharacters);
  app.enableShutdownHooks();
  applyServerTimeouts(app.getHttpServer() as Server, config);
  mountQueueBoard(app, config);
  mountWeb(app, config);
  // After the SPA handlers, so only /api requests read or roll a session.
  installSessions(app, config);
  return app;
}

/**
 * Bounds every connection: headers must arrive within headersTimeout, a whole request (a 100 MB upload on a
 * slow line included) within requestTimeout, and an idle keep-alive socket closes after keepAliveTimeout
 * (longer than a load balancer's usual 60 s idle timeout, so the balancer closes first). Node answers 408
 * and closes the socket; the check runs every checkMs (Node's default, 30 s, would let a request overrun).
 */
function applyServerTimeouts(server: Server, config: ApiConfig): void {
  server.headersTimeout = config.http.headersTimeout;
  server.requestTimeout = config.http.requestTimeout;
  server.keepAliveTimeout = config.http.keepAliveTimeout;
  // Read when the server starts listening, so setting it here (before listen) takes effect.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval =
    config.http.checkMs;
  server.on('clientError', answerClientError);
}

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'REQUEST_TIMEOUT', 'The request took too long to arrive. Send it again.'],
  HPE_HEADER_OVERFLOW: [431, 'HEADERS_TOO_LARGE', 'The request headers are too large.'],
};

/**
 * Requests Node refuses before Express sees them (malformed HTTP, a bad Content-Length, timeouts) still get
 * the api's `{ error, code }` body instead of Node's bare status line.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  // Node's own rule: answer only if nothing was written on this connection yet, else just close it.
  const written = (socket as Duplex & { bytesWritten?: number }).bytesWritten ?? 0;
  if (err.code === 'ECONNRESET' || !socket.writable || written > 0) {
    socket.destroy();
    return;
  }
  const [status, code, error] = CLIENT_ERRORS[err.code ?? ''] ?? [
    400,
    'BAD_REQUEST',
    'The request is not valid HTTP (check its Content-Length and headers).',
  ];
  const body = JSON.stringify({ error, code });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * Serves the built SPA; /api/* stays JSON. Public pages are prerendered at build time
 * (scripts/prerender-web.js): '/' is index.html and each other public route is <route>/index.html; every
 * route of the app's router gets the empty app shell (app.html) and renders in the browser; any other path
 * answers 404 with the prerendered not-found page (404.html).
 */
function mountWeb(app: NestExpressApplication, config: ApiConfig): void {
  const dist = config.webDist ? resolve(config.webDist) : join(repoRoot(), 'dist', 'web');
  const index = join(dist, 'index.html');
  if (!existsSync(index)) {
    app.use((req: express.Request, res: express.Response, next: express.NextFunction) => {
      if (req.method !== 'GET' || isApiPath(req.path)) return next();
      res.status(503).type('text/plain').send('The web app is not built yet. Run: npm run build:web');
    });
    return;
  }
  const shell = existsSync(join(dist, 'app.html')) ? join(dist, 'app.html') : index;
  // The prerendered routes, read once from the build output (one folder level, e.g. dist/web/terms/index.html).
  const prerendered = new Map<string, string>([['/', index]]);
  for (const entry of readdirSync(dist, { withFileTypes: true })) {
    const page = join(dist, entry.name, 'index.html');
    if (entry.isDirectory() && existsSync(page)) prerendered.set(`/${entry.name}`, page);
  }
  const assets = join(dist, 'assets');
  // The build's .br/.gz copies (scripts/precompress-web.js) go out as they are when the browser takes them.
  const precompressed = new PrecompressedAssets(dist);
  const cacheAssets = (res: express.Response, path: string) => {
    if (path.startsWith(assets)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
  };
  const staticCopies = precompressed.middleware();
  const files = express.static(dist, {
    index: false,
    redirect: false,
    extensions: ['html'],
    setHeaders: cacheAssets,
  });
  app.use((req: express.Request, res: express.Response, next: express.NextFunction) => {
    // Api requests skip the file lookups (a stat per request otherwise, on the hottest routes).
    if (isApiPath(req.path)) return next();
    if (req.path.startsWith('/assets/')) cacheAssets(res, join(dist, req.path));
    staticCopies(req, res, (err?: unknown) => (err ? next(err) : void files(req, res, next)));
  });
  // Only the app's own routes get the shell; any other path answers 404 with the not-found page.
  const isAppRoute = loadAppRoutes(dist);
  const notFound = join(dist, '404.html');
  app.use((req: express.Request, res: express.Response, next: express.NextFunction) => {
    // The sign-in page's forms post to it only when sent before its script ran (or with scripts off): back
    // to the page, where they work (303, so the browser asks with GET); nothing posted is read or kept.
    if (req.method === 'POST' && req.path.replace(/\/+$/, '') === '/auth')
      return res.redirect(303, req.originalUrl);
    if ((req.method !== 'GET' && req.method !== 'HEAD') || isApiPath(req.path)) return next();
    res.setHeader('Cache-Control', 'no-cache');
    const path = req.path.length > 1 ? req.path.replace(/\/+$/, '') : req.path;
    const page = prerendered.get(path);
    if (page || !isAppRoute || isAppRoute(path)) return precompressed.send(req, res, page ?? shell, next);
    res.status(404);
    precompressed.send(req, res, existsSync(notFound) ? notFound : shell, next);
  });
}

function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/') || path.startsWith('/admin/');
}
