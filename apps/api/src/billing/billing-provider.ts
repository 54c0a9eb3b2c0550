// The provider interface and the subscription rules live in libs/billing (the worker applies events too);
// the api adds its injection token.
export * from '@csv-mapper/billing';

export const BILLING_PROVIDER = Symbol('BILLING_PROVIDER');
