import { Controller, Get, Inject } from '@nestjs/common';
import {
  HealthCheck,
  HealthCheckService,
  HealthIndicatorService,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import type { RedisClient } from '@csv-mapper/queue';
import { QueueBacklogService } from '../queue/queue-backlog.service';
import { within } from '../common/within';
import { REDIS } from '../redis/redis.module';

/** How long the Redis ping and the queues' backlog may take before the check answers without them. */
const CHECK_TIMEOUT_MS = 1500;

@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    @Inject(REDIS) private readonly redis: RedisClient,
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
      () => this.db.pingCheck('database', { timeout: CHECK_TIMEOUT_MS }),
      () => this.pingRedis(),
      () => this.queues(),
    ]);
  }

  private async queues() {
    const indicator = this.indicators.check('queues');
    try {
      return indicator.up(await within(CHECK_TIMEOUT_MS, this.backlog.all()));
    } catch (err) {
      // Redis being down is the redis check's verdict; the detail says only that it is unknown now.
      return indicator.up({ unavailable: (err as Error).message });
    }
  }

  private async pingRedis() {
    const indicator = this.indicators.check('redis');
    try {
      const pong = await within(CHECK_TIMEOUT_MS, this.redis.ping());
      return pong === 'PONG' ? indicator.up() : indicator.down({ message: `unexpected reply ${pong}` });
    } catch (err) {
      return indicator.down({ message: (err as Error).message });
    }
  }
}
