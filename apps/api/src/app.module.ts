import { DynamicModule, Module, RequestMethod } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoggerModule } from 'nestjs-pino';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { buildDataSourceOptions } from '@csv-mapper/db';
import { ApiConfig } from './config/api.config';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { createValidationPipe } from './common/validation';
import { AuthModule } from './auth/auth.module';
import { ConfigModule } from './config/config.module';
import { clientAbortLogging } from './common/client-abort.logging';
import { ErrorFilter } from './common/error.filter';
import { logRedaction } from './common/log-redaction';
import { requestLogging } from './common/request-logging';
import { AdminModule } from './admin/admin.module';
import { HealthModule } from './health/health.module';
import { UsersModule } from './users/users.module';
import { QueueModule } from './queue/queue.module';
import { RedisModule } from './redis/redis.module';
import { UploadsModule } from './uploads/uploads.module';
import { ProcessingModule } from './processing/processing.module';
import { BatchesModule } from './batches/batches.module';
import { MappingsModule } from './mappings/mappings.module';
import { TemplatesModule } from './templates/templates.module';
import { JobsModule } from './jobs/jobs.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { DocsModule } from './docs/docs.module';
import { BillingModule } from './billing/billing.module';
import { TeamsModule } from './teams/teams.module';

@Module({})
export class AppModule {
  static forRoot(config: ApiConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggerModule.forRoot({
          // Every path, in path-to-regexp 8 syntax (nestjs-pino 4's default '*' draws a legacy-route warning).
          forRoutes: [{ path: '{/*splat}', method: RequestMethod.ALL }],
          pinoHttp: requestLogging(config.env, {
            level: config.logLevel,
            genReqId: (req: IncomingMessage) => {
              const incoming = req.headers['x-request-id'];
              return typeof incoming === 'string' && /^[\w-]{1,64}$/.test(incoming) ? incoming : randomUUID();
            },
            // Credentials, keys, webhook secrets and link tokens never reach the log.
            ...logRedaction,
            autoLogging: { ignore: (req: IncomingMessage) => req.url === '/api/health' },
            ...clientAbortLogging,
          }),
        }),
        TypeOrmModule.forRoot({
          ...buildDataSourceOptions(config.databaseUrl, { poolSize: config.databasePoolSize }),
          retryAttempts: 0,
        }),
        RedisModule,
        QueueModule,
        HealthModule,
        AuthModule,
        UsersModule,
        ApiKeysModule,
        AdminModule,
        UploadsModule,
        ProcessingModule,
        BatchesModule,
        MappingsModule,
        TemplatesModule,
        JobsModule,
        WebhooksModule,
        TeamsModule,
        BillingModule,
        DocsModule,
      ],
      providers: [
        { provide: APP_FILTER, useClass: ErrorFilter },
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
    };
  }
}
