import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { catchError, type Observable, throwError } from 'rxjs';
import { isRedisUnavailableError } from '@csv-mapper/queue';
import { AppError } from '../common/app-error';

/**
 * Jobs live in Redis: while it is unreachable, answer 503 at once (the clients fail fast, see
 * createRedis/bullConnection) instead of a 500, so callers know to retry.
 */
@Injectable()
export class RedisUnavailableInterceptor implements NestInterceptor {
  intercept(_ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next
      .handle()
      .pipe(
        catchError((err: unknown) =>
          throwError(() =>
            isRedisUnavailableError(err)
              ? new AppError(
                  503,
                  'SERVICE_UNAVAILABLE',
                  'Background jobs are unavailable for a moment (the job store cannot be reached). Try again shortly.',
                )
              : err,
          ),
        ),
      );
  }
}
