import { DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { BullModule } from '@nestjs/bullmq';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoggerModule } from 'nestjs-pino';
import {
  buildDataSourceOptions,
  QuotaLedger,
  WebhookDeliveryEntity,
  WebhookEndpointEntity,
} from '@csv-mapper/db';
import { DataSource } from 'typeorm';
import { bullConnection, bullPrefix, QUEUES } from '@csv-mapper/queue';
import { BillingEventsProcessor } from './billing/billing-events.processor';
import { BillingReconciliationService } from './billing/billing-reconciliation.service';
import { BILLING_PROVIDERS } from './billing/billing.providers';
import { WorkerConfig } from './config/worker.config';
import { WorkerConfigModule } from './config/worker-config.module';
import { WorkerMailer } from './mail/worker-mailer';
import { MaintenanceProcessor } from './quota/maintenance.processor';
import { QuotaSchedulerService } from './quota/quota-scheduler.service';
import { QuotaService } from './quota/quota.service';
import { RedisModule } from './redis/redis.module';
import { CsvJobsProcessor } from './csv-jobs/csv-jobs.processor';
import { StalledJobsService } from './metrics/stalled-jobs.service';
import { WebhookDispatcher } from './webhooks/webhook-dispatcher.service';
import { WebhooksProcessor } from './webhooks/webhooks.processor';

// @nestjs/bullmq reads each processor's BullMQ Worker options from this class metadata (set by
// @Processor) when it creates the Worker; the key is not exported, so it is named here.
const WORKER_OPTIONS_METADATA = 'bullmq:worker_metadata';
const PROCESSORS = [CsvJobsProcessor, WebhooksProcessor, MaintenanceProcessor, BillingEventsProcessor];

/** Lock duration and stalled-job check interval come from config (WORKER_LOCK_MS), not the decorators. */
function applyLockSettings(config: WorkerConfig): void {
  for (const cls of PROCESSORS) {
    const current = (Reflect.getMetadata(WORKER_OPTIONS_METADATA, cls) ?? {}) as Record<string, unknown>;
    Reflect.defineMetadata(
      WORKER_OPTIONS_METADATA,
      {
        ...current,
        lockDuration: config.lockMs,
        stalledInterval: config.stalledIntervalMs,
        name: config.workerName,
      },
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
          connection: bullConnection(config.redisUrl, 'worker', config.redisClusterNodes),
          prefix: bullPrefix(config.redisPrefix),
        }),
        BullModule.registerQueue(
          { name: QUEUES.maintenance },
          { name: QUEUES.csvJobs },
          { name: QUEUES.webhooks },
          { name: QUEUES.billing },
        ),
        DiscoveryModule,
        TypeOrmModule.forFeature([WebhookEndpointEntity, WebhookDeliveryEntity]),
        RedisModule,
      ],
      providers: [
        QuotaService,
        MaintenanceProcessor,
        QuotaSchedulerService,
        { provide: QuotaLedger, inject: [DataSource], useFactory: (ds: DataSource) => new QuotaLedger(ds) },
        CsvJobsProcessor,
        WebhookDispatcher,
        WebhooksProcessor,
        WorkerMailer,
        ...BILLING_PROVIDERS,
        BillingEventsProcessor,
        BillingReconciliationService,
        StalledJobsService,
      ],
    };
  }
}
