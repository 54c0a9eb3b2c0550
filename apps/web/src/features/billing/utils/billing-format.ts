import type { PlanCatalogueEntry, SubscriptionView } from '@csv-mapper/contracts';

/** Epoch seconds → 'dd/mm/yyyy' (spec §4: dates in en-GB). */
export function formatBillingDate(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toLocaleDateString('en-GB');
}

/** Spec §4: cancelAt, else currentPeriodEnd, else 'end of billing period'. */
export function cancellationDateText(sub: SubscriptionView): string {
  const at = sub.cancelAt ?? sub.currentPeriodEnd;
  return at ? formatBillingDate(at) : 'end of billing period';
}

/** A plan's price as the checkout's pay button shows it: '£12.00'; custom plans keep their text. */
export function exactPrice(plan: Pick<PlanCatalogueEntry, 'priceGbp' | 'price'>): string {
  return plan.priceGbp === null ? plan.price : `£${plan.priceGbp.toFixed(2)}`;
}
