import { Injectable } from '@nestjs/common';
import type { UserEntity } from '@csv-mapper/db';

/**
 * Called before an account is deleted. The billing issue provides the real one (cancels the Stripe
 * subscription); until then nothing is billed, so there is nothing to cancel.
 */
@Injectable()
export class SubscriptionCanceller {
  async cancelFor(user: UserEntity): Promise<void> {
    void user;
    return Promise.resolve();
  }
}
