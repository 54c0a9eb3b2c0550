import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { AuthModule } from '../auth/auth.module';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';
import { OperatorAuth } from './operator-auth.service';

/** Operator tools: Prometheus metrics, and the operator Basic auth (the queue board is mounted in bootstrap). */
@Module({
  imports: [AuthModule],
  controllers: [MetricsController],
  providers: [MetricsService, OperatorAuth],
})
export class AdminModule implements NestModule {
  constructor(private readonly metrics: MetricsService) {}

  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply((req: Request, res: Response, next: NextFunction) => {
        const end = this.metrics.httpDuration.startTimer();
        res.on('finish', () => {
          const route = (req.route?.path as string | undefined) ?? 'unmatched';
          end({ method: req.method, route, status: `${Math.floor(res.statusCode / 100)}xx` });
        });
        next();
      })
      .forRoutes('*path');
  }
}
