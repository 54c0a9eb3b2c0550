import { DynamicModule, Module } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoggerModule } from 'nestjs-pino';
import { buildDataSourceOptions, WebhookDeliveryEntity, WebhookEndpointEntity } from '@csv-mapper/db';
import { bullConnection, QUEUES } from '@csv-mapper/queue';
import { WorkerConfig } from './config/worker.config';
import { WorkerConfigModule } from './config/worker-config.module';
import { WorkerMailer } from './mail/worker-mailer';
import { MaintenanceProcessor } from './quota/maintenance.processor';
import { QuotaSchedulerService } from './quota/quota-scheduler.service';
import { QuotaService } from './quota/quota.service';
import { RedisModule } from './redis/redis.module';
import { CsvJobsProcessor } from './csv-jobs/csv-jobs.processor';
import { UsageService } from './csv-jobs/usage.service';
import { WebhookDispatcher } from './webhooks/webhook-dispatcher.service';
import { WebhooksProcessor } from './webhooks/webhooks.processor';

// @nestjs/bullmq reads each processor's BullMQ Worker options from this class metadata (set by
// @Processor) when it creates the Worker; the key is not exported, so it is named here.
const WORKER_OPTIONS_METADATA = 'bullmq:worker_metadata';
const PROCESSORS = [CsvJobsProcessor, WebhooksProcessor, MaintenanceProcessor];

/** Lock duration and stalled-job check interval come from config (WORKER_LOCK_MS), not the decorators. */
function applyLockSettings(config: WorkerConfig): void {
  for (const cls of PROCESSORS) {
    const current = (Reflect.getMetadata(WORKER_OPTIONS_METADATA, cls) ?? {}) as Record<string, unknown>;
    Reflect.defineMetadata(
      WORKER_OPTIONS_METADATA,
      { ...current, lockDuration: config.lockMs, stalledInterval: config.stalledIntervalMs },
      cls,
    );
  }
}

@Module({})
export class WorkerModule {
  static forRoot(config: WorkerConfig): DynamicModule {
    applyLockSettings(config);
    return {
      module: WorkerModule,
      imports: [
        WorkerConfigModule.forRoot(config),
        LoggerModule.forRoot({ pinoHttp: { level: config.logLevel } }),
        TypeOrmModule.forRoot({
          ...buildDataSourceOptions(config.databaseUrl, { poolSize: 5 }),
          retryAttempts: 3,
        }),
        BullModule.forRoot({
          // Worker connections block on Redis: BullMQ requires maxRetriesPerRequest: null.
          connection: bullConnection(config.redisUrl, 'worker'),
          prefix: `${config.redisPrefix}bull`,
        }),
        BullModule.registerQueue(
          { name: QUEUES.maintenance },
          { name: QUEUES.csvJobs },
          { name: QUEUES.webhooks },
        ),
        TypeOrmModule.forFeature([WebhookEndpointEntity, WebhookDeliveryEntity]),
        RedisModule,
      ],
      providers: [
        QuotaService,
        MaintenanceProcessor,
        QuotaSchedulerService,
        UsageService,
        CsvJobsProcessor,
        WebhookDispatcher,
        WebhooksProcessor,
        WorkerMailer,
      ],
    };
  }
}
