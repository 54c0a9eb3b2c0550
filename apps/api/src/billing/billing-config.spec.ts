import { ConfigError, loadApiConfig } from '../config/api.config';

describe('billing configuration', () => {
  const stripe = {
    STRIPE_SECRET_KEY: 'sk_test_abc',
    STRIPE_WEBHOOK_SECRET: 'whsec_abc',
    STRIPE_PRICE_PRO: 'price_pro',
    STRIPE_PRICE_BUSINESS: 'price_business',
  };

  it('uses the simulated provider (no Stripe settings) when STRIPE_SECRET_KEY is unset', () => {
    expect(loadApiConfig({}).stripe).toBeNull();
  });

  it('reads the Stripe settings when all four are set', () => {
    expect(loadApiConfig(stripe).stripe).toEqual({
      secretKey: 'sk_test_abc',
      webhookSecret: 'whsec_abc',
      prices: { pro: 'price_pro', business: 'price_business' },
    });
  });

  it('refuses to start when the key is set but the webhook secret or a price is missing, naming each', () => {
    const { STRIPE_WEBHOOK_SECRET: _w, STRIPE_PRICE_BUSINESS: _b, ...partial } = stripe;
    let err: unknown;
    try {
      loadApiConfig(partial);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const text = String((err as Error).message);
    expect(text).toContain('STRIPE_WEBHOOK_SECRET: is required when STRIPE_SECRET_KEY is set');
    expect(text).toContain('STRIPE_PRICE_BUSINESS: is required when STRIPE_SECRET_KEY is set');
    expect(text).not.toContain('STRIPE_PRICE_PRO:');
  });

  it('never echoes a malformed secret key into the error', () => {
    expect(() => loadApiConfig({ ...stripe, STRIPE_SECRET_KEY: 'pk_live_secretish' })).toThrow(
      /STRIPE_SECRET_KEY: must be a Stripe secret or restricted key .*\(got \(hidden\)\)/,
    );
    expect(() => loadApiConfig({ ...stripe, STRIPE_SECRET_KEY: 'pk_live_secretish' })).not.toThrow(
      /secretish/,
    );
  });
});
