import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ThrottleService, tooMany } from '../auth/throttle.service';
import { AppError } from '../common/app-error';
import { ApiConfig } from '../config/api.config';
import { isOperator } from './operator-auth';

/** Wrong operator credentials one client IP may send per window before it is paused. */
export const OPERATOR_FAILURES_PER_IP = 10;
export const OPERATOR_FAILURE_WINDOW_SECONDS = 15 * 60;

const CHALLENGE = 'Basic realm="CSV Mapper operators", charset="UTF-8"';

/**
 * HTTP Basic auth for the operator routes (/admin/queues, /api/metrics). Each credential check first takes
 * a slot of its IP's failure budget in Redis (one atomic step, shared by every api instance), so
 * concurrent guesses cannot overshoot it; the right credentials give the slot back.
 */
@Injectable()
export class OperatorAuth {
  constructor(
    private readonly throttle: ThrottleService,
    private readonly config: ApiConfig,
  ) {}

  /** Resolves for the operator; throws 404 when no operator is configured, 401 or 429 otherwise. */
  async check(req: Request, res: Response): Promise<void> {
    const op = this.config.operator;
    if (!op) {
      throw new AppError(
        404,
        'NOT_FOUND',
        `No API route matches ${req.method} ${req.originalUrl.split('?')[0]}.`,
      );
    }
    const header = req.headers.authorization;
    // No credentials is the browser asking for the prompt, not a guess: answer the challenge, count nothing.
    if (!header) throw challenge(res);
    const bucket = `operator-fail-ip:${req.ip ?? 'unknown'}`;
    const full = await this.throttle.reserve(
      [{ bucket, limit: OPERATOR_FAILURES_PER_IP }],
      OPERATOR_FAILURE_WINDOW_SECONDS,
    );
    if (full) {
      throw tooMany(res, full.retryAfterSeconds, 'Too many wrong operator credentials from this network.');
    }
    if (!isOperator(header, op)) throw challenge(res);
    await this.throttle.release(bucket);
  }

  /** The same check as Express middleware (bull-board is mounted outside Nest's exception filter). */
  middleware() {
    return (req: Request, res: Response, next: NextFunction) => {
      this.check(req, res).then(
        () => next(),
        (err: unknown) => {
          if (!(err instanceof AppError)) return next(err);
          res.status(err.getStatus()).json(err.getResponse());
        },
      );
    };
  }
}

function challenge(res: Response): AppError {
  res.setHeader('WWW-Authenticate', CHALLENGE);
  return new AppError(401, 'UNAUTHORIZED', 'Operator credentials required.');
}
