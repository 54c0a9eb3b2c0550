import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import { startWorker } from '../../../worker/test/support/start-worker';
import { freePort } from '../../../../bench/support/stack';
import { startApp } from './api-test-app';
import { startReceiver, type Receiver } from './webhook-receiver';

// For files that call the api over real HTTP (fetch, an API key) and watch webhooks arrive: the api
// listening on a free port of 127.0.0.1 (APP_URL is its own address), the worker in this process allowed to
// deliver to a real receiver, and a client for the published API.
//   beforeAll(async () => ({ app, worker, receiver, base } = await startListeningStack()));
//   afterAll(() => closeAll(worker, app, receiver));

export interface ListeningStack {
  app: INestApplication;
  worker: INestApplicationContext;
  receiver: Receiver;
  /** http://127.0.0.1:<port> */
  base: string;
}

export async function startListeningStack(workerEnv: Record<string, string> = {}): Promise<ListeningStack> {
  const receiver = await startReceiver();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const app = await startApp({ APP_URL: base });
  await app.listen(port, '127.0.0.1');
  const worker = await startWorker({
    APP_URL: base,
    WEBHOOK_ALLOWED_IPS: `127.0.0.1:${receiver.port}`,
    ...workerEnv,
  });
  return { app, worker, receiver, base };
}

export interface ApiAnswer {
  status: number;
  headers: Headers;
  bytes: Buffer;
  text: string;
  /** The body parsed as JSON; {} when it is not JSON. */
  json: Record<string, unknown>;
}

/** Requests to the api at `base` over real HTTP, with `key` as the Bearer API key (none when null). */
export function apiClient(base: string, key: string | null) {
  const auth: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiAnswer> => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...auth,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    const text = bytes.toString('utf8');
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      /* not JSON */
    }
    return { status: res.status, headers: res.headers, bytes, text, json };
  };
  /** A multipart POST: the fields, then `file` as text/csv named `name`. */
  const form = async (path: string, fields: Record<string, string>, file: string, name: string) => {
    const body = new FormData();
    for (const [k, v] of Object.entries(fields)) body.append(k, v);
    body.append('file', new Blob([file], { type: 'text/csv' }), name);
    const res = await fetch(`${base}${path}`, { method: 'POST', headers: auth, body });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
  /** Uploads a template or data file (expects 201). */
  const upload = async (kind: 'template' | 'data', name: string, content: string) => {
    const r = await form(`/api/upload/${kind}`, {}, content, name);
    expect(r.status).toBe(201);
    return r.json as { id: string; headers: string[] };
  };
  return { call, form, upload };
}
