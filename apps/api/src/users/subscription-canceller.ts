import { Injectable } from '@nestjs/common';
import type { UserEntity } from '@csv-mapper/db';
import { BillingService } from '../billing/billing.service';

/** Called before an account is deleted: a live subscription ends at once (no further charges). */
@Injectable()
export class SubscriptionCanceller {
  constructor(private readonly billing: BillingService) {}

  cancelFor(user: UserEntity): Promise<void> {
    return this.billing.cancelForDeletion(user);
  }
}
