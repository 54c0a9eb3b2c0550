// Billing shared by the api and the worker: the provider interface, reading subscriptions back from
// Stripe or the simulated provider, the one writer of a user's plan, and applying stored events.
export * from './billing-provider';
export * from './plan-state';
export * from './stripe-subscriptions';
export * from './simulated-subscriptions';
export * from './billing-events';
