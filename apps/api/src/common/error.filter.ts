import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { isRedisUnavailableError } from '@csv-mapper/queue';

// One exception filter for the whole api: every failure leaves as `{ error, code }` (+ `details`)
// with the right status. Messages are for people; 5xx details stay in the log.

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

export interface ErrorBody {
  error: string;
  code: string;
  details?: unknown;
}

/** Errors raised by body-parser / http-errors before a route runs carry `status` and `type`. */
interface ParserError {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
  message?: string;
}

@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const res = ctx.getResponse<Response>();
    const req = ctx.getRequest<Request>();
    const { status, body } = this.toBody(exception, req);
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
    if (isDependencyOutage(exception)) {
      return {
        status: HttpStatus.SERVICE_UNAVAILABLE,
        body: {
          error:
            'The service is briefly unavailable (a database or queue connection dropped). Please try again in a minute.',
          code: 'SERVICE_UNAVAILABLE',
        },
      };
    }
    return {
      status: HttpStatus.INTERNAL_SERVER_ERROR,
      body: {
        error: 'Something went wrong on our side. Please try again in a moment.',
        code: 'INTERNAL_ERROR',
      },
    };
  }

  private fromHttpException(
    status: number,
    response: string | object,
    exception: HttpException,
    req: Request,
  ): ErrorBody {
    const code = DEFAULT_CODES[status] ?? (status >= 500 ? 'INTERNAL_ERROR' : 'BAD_REQUEST');
    if (typeof response === 'object' && response !== null) {
      const r = response as Record<string, unknown>;
      if (typeof r.error === 'string' && typeof r.code === 'string') return r as unknown as ErrorBody;
      // Terminus: { status: 'error', info, error: {...}, details }
      if (r.status === 'error' && r.details) {
        return { error: 'A dependency is unavailable.', code, details: r.details };
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

/** Postgres refusing or dropping connections (too many clients, shutting down, cannot connect now). */
const PG_OUTAGE_CODES = new Set([
  '53300',
  '53400',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
]);

/**
 * A request that failed because Postgres or Redis is unreachable or saturated is not a bug to report as
 * 500: it is a 503 the client can retry (SECURITY-CHECKLIST: dependencies down → 503, not a hang).
 */
export function isDependencyOutage(err: unknown): boolean {
  for (
    let e = err as
        | { code?: unknown; name?: unknown; message?: unknown; driverError?: unknown; cause?: unknown }
        | undefined,
      depth = 0;
    e && typeof e === 'object' && depth < 4;
    depth++
  ) {
    const code = typeof e.code === 'string' ? e.code : '';
    const message = typeof e.message === 'string' ? e.message : '';
    if (PG_OUTAGE_CODES.has(code) || isRedisUnavailableError(e)) return true;
    if (/timeout exceeded when trying to connect|Connection terminated|too many clients/i.test(message))
      return true;
    e = (e.driverError ?? e.cause) as typeof e;
  }
  return false;
}
