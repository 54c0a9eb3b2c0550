import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { QuotaLedger } from '@csv-mapper/db';

/** Monthly rows (reserve, commit, refund, this month's use): the ledger in libs/db, shared with the worker. */
@Module({
  providers: [
    { provide: QuotaLedger, inject: [DataSource], useFactory: (ds: DataSource) => new QuotaLedger(ds) },
  ],
  exports: [QuotaLedger],
})
export class QuotaModule {}
