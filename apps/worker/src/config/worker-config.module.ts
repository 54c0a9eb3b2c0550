import { DynamicModule, Global, Module } from '@nestjs/common';
import { WorkerConfig } from './worker.config';

/** Makes the validated WorkerConfig injectable in every worker module. */
@Global()
@Module({})
export class WorkerConfigModule {
  static forRoot(config: WorkerConfig): DynamicModule {
    return {
      module: WorkerConfigModule,
      providers: [{ provide: WorkerConfig, useValue: config }],
      exports: [WorkerConfig],
    };
  }
}
