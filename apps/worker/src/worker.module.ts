import { DynamicModule, Module } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoggerModule } from 'nestjs-pino';
import { buildDataSourceOptions, WebhookDeliveryEntity, WebhookEndpointEntity } from '@csv-mapper/db';
import { bullConnection, QUEUES } from '@csv-mapper/queue';
import { WorkerConfig } from './config/worker.config';
import { WorkerConfigModule } from './config/worker-config.module';
import { MaintenanceProcessor } from './quota/maintenance.processor';
import { QuotaSchedulerService } from './quota/quota-scheduler.service';
import { QuotaService } from './quota/quota.service';
import { RedisModule } from './redis/redis.module';
import { CsvJobsProcessor } from './csv-jobs/csv-jobs.processor';
import { UsageService } from './csv-jobs/usage.service';
import { WebhookDispatcher } from './webhooks/webhook-dispatcher.service';
import { WebhooksProcessor } from './webhooks/webhooks.processor';

@Module({})
export class WorkerModule {
  static forRoot(config: WorkerConfig): DynamicModule {
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
      ],
    };
  }
}
