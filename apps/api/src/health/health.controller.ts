import { Controller, Get, Inject } from '@nestjs/common';
import {
  HealthCheck,
  HealthCheckService,
  HealthIndicatorService,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import type { Redis } from 'ioredis';
import { REDIS } from '../redis/redis.module';

@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  /** Liveness and readiness: the database and Redis */
  @Get()
  @HealthCheck()
  check() {
    return this.health.check([
      () => this.db.pingCheck('database', { timeout: 1500 }),
      () => this.pingRedis(),
    ]);
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
