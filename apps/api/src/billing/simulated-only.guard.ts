import { CanActivate, Inject, Injectable } from '@nestjs/common';
import { AppError } from '../common/app-error';
import { ApiConfig } from '../config/api.config';
import { BILLING_PROVIDER, type BillingProvider } from './billing-provider';
import { SimulatedBillingProvider } from './simulated-billing.provider';

/**
 * Runs before the auth guard on the simulated provider's routes: with Stripe configured or in production
 * they do not exist, so every caller (signed in or not) gets 404, never a 401 that reveals them.
 */
@Injectable()
export class SimulatedOnlyGuard implements CanActivate {
  constructor(
    @Inject(BILLING_PROVIDER) private readonly provider: BillingProvider,
    private readonly config: ApiConfig,
  ) {}

  canActivate(): boolean {
    if (this.config.isProduction || !(this.provider instanceof SimulatedBillingProvider)) {
      throw new AppError(404, 'NOT_FOUND', 'Not found.');
    }
    return true;
  }
}
