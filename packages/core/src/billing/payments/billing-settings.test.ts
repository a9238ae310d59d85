import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../config';
import type { SecretStore } from '../../secrets/secret-store';
import { loadBillingSettings } from './billing-settings';

const secrets = (values: Record<string, string>): SecretStore => ({
  get: async (name) => values[name],
  getOrCreateRandom: async () => {
    throw new Error('not used');
  },
});
const both = { 'stripe-secret-key': 'sk_test_store', 'stripe-webhook-secret': 'whsec_store' };

describe('loadBillingSettings', () => {
  it('prefers the secret store over the plain environment names', async () => {
    const s = await loadBillingSettings(loadSettings({ STRIPE_SECRET_KEY: 'sk_env', STRIPE_WEBHOOK_SECRET: 'whsec_env' }), secrets(both));
    expect([s.secretKey, s.webhookSecret]).toEqual(['sk_test_store', 'whsec_store']);
    expect(s.apiBase).toBeUndefined();
  });

  it('names only what is missing and never echoes a value', async () => {
    const err = await loadBillingSettings(loadSettings({ STRIPE_SECRET_KEY: 'sk_test_visible' }), secrets({})).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'BILLING_NOT_CONFIGURED', status: 503 });
    const message = (err as Error).message;
    expect(message).toContain('STRIPE_WEBHOOK_SECRET');
    expect(message).not.toContain('STRIPE_SECRET_KEY)');
    expect(message).not.toContain('sk_test_visible');
  });

  it('requires the return URLs in cloud mode and checks they are http(s) URLs', async () => {
    await expect(loadBillingSettings(loadSettings({ DBOPS_MODE: 'cloud' }), secrets(both))).rejects.toMatchObject({
      code: 'BILLING_NOT_CONFIGURED',
      message: expect.stringContaining('DBOPS_BILLING_SUCCESS_URL'),
    });
    await expect(loadBillingSettings(loadSettings({ DBOPS_BILLING_SUCCESS_URL: 'javascript:alert(1)' }), secrets(both))).rejects.toMatchObject({
      code: 'BILLING_NOT_CONFIGURED',
    });
    const ok = await loadBillingSettings(
      loadSettings({ DBOPS_MODE: 'cloud', DBOPS_BILLING_SUCCESS_URL: 'https://app.example/ok', DBOPS_BILLING_CANCEL_URL: 'https://app.example/no' }),
      secrets(both),
    );
    expect([ok.successUrl, ok.cancelUrl]).toEqual(['https://app.example/ok', 'https://app.example/no']);
  });

  it('takes STRIPE_API_BASE as an origin', async () => {
    const s = await loadBillingSettings(loadSettings({ STRIPE_API_BASE: 'http://127.0.0.1:12111' }), secrets(both));
    expect([s.apiBase?.hostname, s.apiBase?.port, s.apiBase?.protocol]).toEqual(['127.0.0.1', '12111', 'http:']);
    await expect(loadBillingSettings(loadSettings({ STRIPE_API_BASE: 'ftp://x' }), secrets(both))).rejects.toMatchObject({ code: 'BILLING_NOT_CONFIGURED' });
  });
});
