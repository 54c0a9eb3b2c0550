import { Injectable, Logger } from '@nestjs/common';
import { BillingEventApplier } from '@csv-mapper/billing';

/** The daily comparison of our subscriptions with the provider's (maintenance job billing-reconcile). */
@Injectable()
export class BillingReconciliationService {
  private readonly logger = new Logger('BillingReconciliation');

  constructor(private readonly applier: BillingEventApplier) {}

  async run(): Promise<{ repaired: number }> {
    const drifts = await this.applier.reconcile();
    for (const d of drifts) {
      const what = Object.entries(d.changes)
        .map(([field, [from, to]]) => `${field} ${JSON.stringify(from)} → ${JSON.stringify(to)}`)
        .join(', ');
      this.logger.warn(
        { userId: d.userId, subscriptionId: d.subscriptionId, changes: d.changes },
        `billing drift repaired for user ${d.userId} (subscription ${d.subscriptionId}): ${what}`,
      );
    }
    this.logger.log(`billing reconciliation: ${drifts.length} subscriptions repaired`);
    return { repaired: drifts.length };
  }
}
