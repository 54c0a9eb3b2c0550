import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  HttpStatus,
  Inject,
  Logger,
  Optional,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import type { ErrorBody } from '@csv-mapper/contracts';
import { isCsvEngineError } from '@csv-mapper/csv-engine';
import { isInfrastructureError } from '@csv-mapper/queue';
import { REDIS } from '../redis/redis.module';
import { within } from './within';

// One exception filter for the whole api: every failure leaves as `{ error, code }` (+ `details`)
// with the right status. Messages are for people; 5xx details stay in the log.
// The engine's typed errors (a file or mapping the person can fix) answer here with the status and code
// they carry, wherever they are thrown: services let them through rather than converting them.
// A failure caused by Postgres or Redis being unreachable is a 503 the client can retry, not a 500: known by
// its codes and classes (isInfrastructureError), or — for the driver errors that carry neither (a pool's
// connect timeout, a connection terminated mid-query, a Redis client with no offline queue) — by asking
// the dependencies themselves before answering 500. Never by the error's message text.

const DEFAULT_CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  410: 'GONE',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE_ENTITY',
  429: 'TOO_MANY_REQUESTS',
  503: 'SERVICE_UNAVAILABLE',
};

/** Errors raised by body-parser / http-errors before a route runs carry `status` and `type`. */
interface ParserError {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
  message?: string;
}

const OUTAGE_BODY: ErrorBody = {
  error:
    'The service is briefly unavailable (a database or queue connection dropped). Please try again in a minute.',
  code: 'SERVICE_UNAVAILABLE',
};

/** How long the filter waits for Postgres to answer `SELECT 1` before calling it down. */
const PROBE_TIMEOUT_MS = 2000;

@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorFilter');

  constructor(
    @Optional() private readonly db?: DataSource,
    @Optional() @Inject(REDIS) private readonly redis?: Pick<Redis, 'status'>,
  ) {}

  async catch(exception: unknown, host: ArgumentsHost): Promise<void> {
    const ctx = host.switchToHttp();
    const res = ctx.getResponse<Response>();
    const req = ctx.getRequest<Request>();
    let { status, body } = this.toBody(exception, req);
    if (status === HttpStatus.INTERNAL_SERVER_ERROR && (await this.dependencyDown())) {
      status = HttpStatus.SERVICE_UNAVAILABLE;
      body = OUTAGE_BODY;
    }
    if (status >= 500 && status !== 503) {
      this.logger.error({ err: exception, path: req.originalUrl }, 'Unhandled error');
    } else if (status === 503 && !(exception instanceof HttpException)) {
      this.logger.warn({ err: exception, path: req.originalUrl }, 'Dependency unavailable');
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.status(status).json(body);
  }

  toBody(exception: unknown, req: Request): { status: number; body: ErrorBody } {
    // Express/body-parser errors arrive wrapped by Nest's adapter; their cause keeps the parser's type.
    const cause =
      exception instanceof HttpException ? (exception.cause as ParserError | undefined) : undefined;
    if (cause && typeof cause === 'object' && typeof cause.type === 'string') exception = cause;
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const response = exception.getResponse();
      return { status, body: this.fromHttpException(status, response, exception, req) };
    }
    // Before the parser errors: an engine error carries a `status` too.
    if (isCsvEngineError(exception)) {
      return { status: exception.status, body: { error: exception.message, code: exception.code } };
    }
    const pe = exception as ParserError;
    const peStatus = pe?.status ?? pe?.statusCode;
    if (typeof peStatus === 'number' && peStatus >= 400 && peStatus < 500) {
      if (pe.type === 'entity.parse.failed') {
        return { status: 400, body: { error: 'The request body is not valid JSON.', code: 'INVALID_JSON' } };
      }
      if (exception instanceof URIError) {
        return {
          status: 400,
          body: { error: 'The address contains an invalid character encoding.', code: 'BAD_REQUEST' },
        };
      }
      if (pe.type === 'entity.too.large') {
        return { status: 413, body: { error: 'The request body is too large.', code: 'PAYLOAD_TOO_LARGE' } };
      }
      return {
        status: peStatus,
        body: {
          error: pe.expose && pe.message ? pe.message : 'Bad request.',
          code: DEFAULT_CODES[peStatus] ?? 'BAD_REQUEST',
        },
      };
    }
    if (isInfrastructureError(exception)) {
      return { status: HttpStatus.SERVICE_UNAVAILABLE, body: OUTAGE_BODY };
    }
    return {
      status: HttpStatus.INTERNAL_SERVER_ERROR,
      body: {
        error: 'Something went wrong on our side. Please try again in a moment.',
        code: 'INTERNAL_ERROR',
      },
    };
  }

  /**
   * Asked only before answering 500 for an error that is no HttpException: is Redis' request client not
   * connected, or does Postgres not answer `SELECT 1` within PROBE_TIMEOUT_MS? Then the failure was the
   * outage's, and the client gets 503.
   */
  async dependencyDown(): Promise<boolean> {
    if (this.redis && this.redis.status !== 'ready') return true;
    if (!this.db) return false;
    try {
      await within(PROBE_TIMEOUT_MS, this.db.query('SELECT 1'));
      return false;
    } catch {
      return true;
    }
  }

  private fromHttpException(
    status: number,
    response: string | object,
    exception: HttpException,
    req: Request,
  ): ErrorBody {
    const code = DEFAULT_CODES[status] ?? (status >= 500 ? 'INTERNAL_ERROR' : 'BAD_REQUEST');
    if (typeof response === 'object' && response !== null) {
      if (isErrorBody(response)) return response;
      const r = response as Record<string, unknown>;
      // Terminus: { status: 'error', info, error: {...}, details }
      if (r.status === 'error' && r.details) {
        return { error: 'A dependency is unavailable.', code, details: r.details as ErrorBody['details'] };
      }
      if (status === 404 && /^Cannot /.test(String(r.message ?? ''))) {
        return {
          error: `No API route matches ${req.method} ${req.originalUrl.split('?')[0]}.`,
          code: 'NOT_FOUND',
        };
      }
      const message = Array.isArray(r.message)
        ? r.message.join('; ')
        : String(r.message ?? exception.message);
      return { error: message, code };
    }
    return { error: String(response), code };
  }
}

/** An answer already in our shape (an AppError's): `{ error, code }` strings, `details` as it is. */
function isErrorBody(response: object): response is ErrorBody {
  return (
    'error' in response &&
    typeof response.error === 'string' &&
    'code' in response &&
    typeof response.code === 'string'
  );
}
