import { describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../../server/config.ts';

describe('config', () => {
  it('starts on embedded defaults in development', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.REDIS_URL).toBeUndefined();
    expect(c.cookieSecure).toBe(false);
    expect(c.CREATION_POLL_MS).toBe(2000);
    expect(c.ROUTING_RETRIES).toBe(14);
    expect(c.INTENT_WAIT_MS).toBe(2000);
  });

  it('refuses production without Redis, a session secret, a job secret key or its public URL, naming each variable', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    try {
      loadConfig({ NODE_ENV: 'production' });
    } catch (err) {
      expect((err as Error).message).toMatch(/REDIS_URL/);
      expect((err as Error).message).toMatch(/SESSION_SECRET/);
      expect((err as Error).message).toMatch(/JOB_SECRET_KEY/);
      expect((err as Error).message).toMatch(/PUBLIC_URL is required in production/);
    }
  });

  it('accepts a complete production config with secure cookies', () => {
    const c = loadConfig({
      NODE_ENV: 'production',
      REDIS_URL: 'redis://127.0.0.1:6379',
      SESSION_SECRET: 'x'.repeat(40),
      JOB_SECRET_KEY: 'ab'.repeat(32),
      PUBLIC_URL: 'https://onboarding.example.se',
    });
    expect(c.cookieSecure).toBe(true);
    expect(c.production).toBe(true);
  });

  it('refuses Secure cookies with a plain-http PUBLIC_URL other than loopback, saying why', () => {
    const production = { NODE_ENV: 'production', REDIS_URL: 'redis://127.0.0.1:6379', SESSION_SECRET: 'x'.repeat(40), JOB_SECRET_KEY: 'ab'.repeat(32) };
    expect(() => loadConfig({ ...production, PUBLIC_URL: 'http://onboarding.example.se' })).toThrow(
      /PUBLIC_URL http:\/\/onboarding\.example\.se is plain http, but cookies are Secure .*never store the session cookie/,
    );
    expect(() => loadConfig({ COOKIE_SECURE: 'true', HOST: '0.0.0.0' })).toThrow(/PUBLIC_URL http:\/\/0\.0\.0\.0:3000 is plain http/);
    // Loopback is a secure context to browsers; without Secure cookies plain http is the operator's choice.
    for (const PUBLIC_URL of ['http://127.0.0.1:3000', 'http://localhost:3000', 'http://se.localhost:3000', 'http://[::1]:3000']) {
      expect(loadConfig({ ...production, PUBLIC_URL }).cookieSecure).toBe(true);
    }
    expect(loadConfig({ ...production, PUBLIC_URL: 'http://onboarding.test', COOKIE_SECURE: 'false' }).cookieSecure).toBe(false);
    expect(loadConfig({ ...production, PUBLIC_URL: 'https://onboarding.example.se' }).cookieSecure).toBe(true);
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT/],
    [{ BANKID_API_URL: 'not a url' }, /BANKID_API_URL/],
    [{ BANKID_CERT_PATH: '/x.pem' }, /BANKID_KEY_PATH/],
    [{ DEFAULT_COUNTRY: 'US' }, /DEFAULT_COUNTRY/],
    [{ OIDC_ISSUER_URL: 'http://broker.example.com' }, /OIDC_ISSUER_URL must use https/],
    [{ OIDC_ISSUER_URL: 'https://broker.example.com' }, /OIDC_CLIENT_SECRET must be set/],
    [{ COUNTRY_HOSTS: 'example.dk=US' }, /COUNTRY_HOSTS/],
  ])('rejects %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('maps host names to markets', () => {
    const c = loadConfig({ COUNTRY_HOSTS: 'onboarding.example.DK=dk,example.no=NO' });
    expect(c.countryByHost.get('onboarding.example.dk')).toBe('DK');
    expect(c.countryByHost.get('example.no')).toBe('NO');
    expect(loadConfig({ OIDC_ISSUER_URL: 'https://broker.example.com', OIDC_CLIENT_SECRET: 's'.repeat(32) }).OIDC_ISSUER_URL).toBe(
      'https://broker.example.com',
    );
  });

  it('exits 1 with a clear message when started with bad config', async () => {
    const { spawnSync } = await import('node:child_process');
    const res = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts', 'web'], {
      env: { ...process.env, NODE_ENV: 'production', REDIS_URL: '', SESSION_SECRET: '' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(res.status).toBe(1);
    expect(res.stderr).toMatch(/Invalid configuration/);
    expect(res.stderr).toMatch(/REDIS_URL is required in production/);
  });
});
