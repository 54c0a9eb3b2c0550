import { Controller, Get, Inject } from '@nestjs/common';
import {
  HealthCheck,
  HealthCheckService,
  HealthIndicatorService,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import type { Redis } from 'ioredis';
import { QueueBacklogService } from '../queue/queue-backlog.service';
import { REDIS } from '../redis/redis.module';

@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly backlog: QueueBacklogService,
  ) {}

  /**
   * Liveness and readiness: the database and Redis. The queues' backlog is a detail for operators: a
   * backed-up queue never makes this fail (alert on the metrics instead).
   */
  @Get()
  @HealthCheck()
  check() {
    return this.health.check([
      () => this.db.pingCheck('database', { timeout: 1500 }),
      () => this.pingRedis(),
      () => this.queues(),
    ]);
  }

  private async queues() {
    const indicator = this.indicators.check('queues');
    let timer: NodeJS.Timeout | undefined;
    try {
      const backlog = await Promise.race([
        this.backlog.all(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout after 1500 ms')), 1500);
        }),
      ]);
      return indicator.up(backlog);
    } catch (err) {
      // Redis being down is the redis check's verdict; the detail says only that it is unknown now.
      return indicator.up({ unavailable: (err as Error).message });
    } finally {
      clearTimeout(timer);
    }
  }

  private async pingRedis() {
    const indicator = this.indicators.check('redis');
    let timer: NodeJS.Timeout | undefined;
    try {
      const pong = await Promise.race([
        this.redis.ping(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout after 1500 ms')), 1500);
        }),
      ]);
      return pong === 'PONG' ? indicator.up() : indicator.down({ message: `unexpected reply ${pong}` });
    } catch (err) {
      return indicator.down({ message: (err as Error).message });
    } finally {
      clearTimeout(timer);
    }
  }
}
