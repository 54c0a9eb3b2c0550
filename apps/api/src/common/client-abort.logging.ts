import type { IncomingMessage, ServerResponse } from 'node:http';

// How the request log treats a client that hangs up before its answer (a closed tab, a dropped line, an
// abandoned upload): a warning with nginx's 499 "client closed request", never an error or a 500.

/** The response closed before it was fully written: the client went away. */
export function clientAborted(res: ServerResponse): boolean {
  return !res.writableEnded;
}

/** pino-http options, spread into LoggerModule's `pinoHttp`. */
export const clientAbortLogging = {
  customLogLevel: (_req: IncomingMessage, res: ServerResponse) => (clientAborted(res) ? 'warn' : 'info'),
  customSuccessObject: (_req: IncomingMessage, res: ServerResponse, val: Record<string, unknown>) =>
    clientAborted(res) ? { ...val, status: 499, clientAborted: true } : val,
} as const;
