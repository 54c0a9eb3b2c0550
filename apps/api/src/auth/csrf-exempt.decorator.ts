import { SetMetadata } from '@nestjs/common';

export const CSRF_EXEMPT = 'csvm:csrfExempt';

/**
 * Exempts a route from the cross-site write check. Only for callers that are not browsers and prove
 * themselves another way (the Stripe webhook, which checks its signature).
 */
export const CsrfExempt = (): MethodDecorator & ClassDecorator => SetMetadata(CSRF_EXEMPT, true);
