import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Options } from 'pino-http';
import pretty from 'pino-pretty';
import { clientAborted } from './client-abort.logging';
import { redactUrl } from './log-redaction';

// The request log a person reads while developing (issue 28): one short line per request — method, path,
// status, time and who — through pino-pretty, instead of a ~1 KB JSON line with every header. Production
// keeps the JSON lines log collectors parse; tests keep JSON too (they read it, at LOG_LEVEL=silent or not).

type Caller = { username?: string; id?: string };

/** "GET /api/user 200 12 ms ana": the path without its query (secrets stay out), the user when signed in. */
export function requestLine(req: IncomingMessage, res: ServerResponse, ms?: number): string {
  const url = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '';
  const path = redactUrl(url.split('?')[0]);
  const status = clientAborted(res) ? 499 : res.statusCode;
  const user = (req as IncomingMessage & { user?: Caller }).user;
  const who = user ? ` ${user.username ?? user.id}` : '';
  return `${req.method} ${path} ${status}${ms === undefined ? '' : ` ${Math.round(ms)} ms`}${who}`;
}

/** pino-http's settings for this environment: as given (JSON), or with the readable development line. */
export function requestLogging(
  env: 'development' | 'production' | 'test',
  options: Options,
): Options | [Options, NodeJS.WritableStream] {
  if (env !== 'development') return options;
  const stream = pretty({
    colorize: Boolean(process.stdout.isTTY),
    translateTime: 'HH:MM:ss',
    ignore: 'pid,hostname,req,res,responseTime,reqId,context',
    messageFormat: '{if context}[{context}] {end}{msg}',
  });
  return [
    {
      ...options,
      quietReqLogger: true,
      customSuccessMessage: (req, res, ms) => requestLine(req, res, ms),
      customErrorMessage: (req, res) => requestLine(req, res),
    },
    stream,
  ];
}
