import { describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../../server/config.ts';
import { productProcessArgs } from '../support/productProcess.ts';

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

  it('gives each market its success URL (SUCCESS_URL_<market>), SUCCESS_URL where none is set, and refuses one that is no URL', () => {
    const c = loadConfig({ SUCCESS_URL: 'https://bank.example/overview', SUCCESS_URL_NO: 'https://no.bank.example/velkommen', SUCCESS_URL_FI: '' });
    expect(c.successUrls).toEqual({
      SE: 'https://bank.example/overview',
      NO: 'https://no.bank.example/velkommen',
      DK: 'https://bank.example/overview',
      FI: 'https://bank.example/overview',
    });
    expect(loadConfig({}).successUrls.DK).toBe(loadConfig({}).SUCCESS_URL);
    expect(() => loadConfig({ SUCCESS_URL_DK: 'velkommen' })).toThrow(/SUCCESS_URL_DK/);
  });

  // "Start using the app" (identification-routing-creation §2): a universal link, so https (http only on loopback for tests).
  it('takes APP_URL as an https universal link, refusing plain http off loopback and a non-URL', () => {
    expect(loadConfig({}).APP_URL).toBe('https://app.example.com/open');
    expect(loadConfig({ APP_URL: 'https://bank.example/app' }).APP_URL).toBe('https://bank.example/app');
    expect(loadConfig({ APP_URL: 'http://127.0.0.1:3001/app' }).APP_URL).toBe('http://127.0.0.1:3001/app');
    expect(() => loadConfig({ APP_URL: 'http://bank.example/app' })).toThrow(/APP_URL must be an https universal link/);
    expect(() => loadConfig({ APP_URL: 'bankapp://open' })).toThrow(/APP_URL/);
    expect(() => loadConfig({ APP_URL: 'not a url' })).toThrow(/APP_URL/);
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

  describe('safe by default wherever REDIS_URL is set or NODE_ENV=production', () => {
    const developmentSessionSecret = 'development-only-session-secret-0123456789';
    const developmentJobKey = Buffer.alloc(32, 'development-only-job-secret-key!');
    // A shared deployment's settings, each right: REDIS_URL set, NODE_ENV set nowhere (development by default).
    const deployed = {
      REDIS_URL: 'redis://127.0.0.1:6379',
      PUBLIC_URL: 'https://onboarding.example.se',
      SESSION_SECRET: 's'.repeat(40),
      JOB_SECRET_KEY: 'ab'.repeat(32),
      COOKIE_SECURE: 'true',
    };
    /** The settings an invalid configuration names, one per line of its message. */
    const named = (env: Record<string, string | undefined>): string[] => {
      try {
        loadConfig(env);
        return [];
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return [...(err as Error).message.matchAll(/^ {2}(\w+): /gm)].map((m) => m[1]!);
      }
    };

    it.each([
      [
        'no SESSION_SECRET (the development one would be used)',
        'SESSION_SECRET',
        { SESSION_SECRET: undefined },
        /SESSION_SECRET is required whenever REDIS_URL is set/,
      ],
      ['the development SESSION_SECRET', 'SESSION_SECRET', { SESSION_SECRET: developmentSessionSecret }, /the development secret is public/],
      [
        'no JOB_SECRET_KEY (the development one would be used)',
        'JOB_SECRET_KEY',
        { JOB_SECRET_KEY: undefined },
        /JOB_SECRET_KEY is required whenever REDIS_URL is set/,
      ],
      ['the development JOB_SECRET_KEY in hex', 'JOB_SECRET_KEY', { JOB_SECRET_KEY: developmentJobKey.toString('hex') }, /the development key is public/],
      ['the development JOB_SECRET_KEY in base64', 'JOB_SECRET_KEY', { JOB_SECRET_KEY: developmentJobKey.toString('base64') }, /the development key is public/],
      ['no PUBLIC_URL', 'PUBLIC_URL', { PUBLIC_URL: undefined }, /PUBLIC_URL is required whenever REDIS_URL is set/],
      [
        'COOKIE_SECURE=false on an https origin',
        'COOKIE_SECURE',
        { COOKIE_SECURE: 'false' },
        /COOKIE_SECURE=false but PUBLIC_URL https:\/\/onboarding\.example\.se is https/,
      ],
      [
        'COOKIE_SECURE unset on an https origin outside production',
        'COOKIE_SECURE',
        { COOKIE_SECURE: undefined },
        /COOKIE_SECURE is unset, so off outside production,/,
      ],
    ])('with REDIS_URL set, refuses %s, naming only %s', (_, setting, change, message) => {
      for (const NODE_ENV of [undefined, 'development', 'test']) {
        const env = { ...deployed, NODE_ENV, ...change };
        expect(named(env), `NODE_ENV=${NODE_ENV}`).toEqual([setting]);
        expect(() => loadConfig(env)).toThrow(message);
      }
    });

    it.each([
      ['no SESSION_SECRET', 'SESSION_SECRET', { SESSION_SECRET: undefined }],
      ['the development SESSION_SECRET', 'SESSION_SECRET', { SESSION_SECRET: developmentSessionSecret }],
      ['no JOB_SECRET_KEY', 'JOB_SECRET_KEY', { JOB_SECRET_KEY: undefined }],
      ['the development JOB_SECRET_KEY', 'JOB_SECRET_KEY', { JOB_SECRET_KEY: developmentJobKey.toString('base64') }],
      ['no PUBLIC_URL', 'PUBLIC_URL', { PUBLIC_URL: undefined }],
      ['COOKIE_SECURE=false on an https origin', 'COOKIE_SECURE', { COOKIE_SECURE: 'false' }],
    ])('with NODE_ENV=production, refuses %s, naming only %s', (_, setting, change) => {
      expect(named({ ...deployed, NODE_ENV: 'production', COOKIE_SECURE: undefined, ...change })).toEqual([setting]);
    });

    it('accepts the deployment once every setting is its own, in every NODE_ENV', () => {
      for (const NODE_ENV of [undefined, 'development', 'test', 'production']) expect(named({ ...deployed, NODE_ENV })).toEqual([]);
      // The test stacks' shape: a Redis-mode stack on loopback over plain http with secrets of its own.
      const stack = { ...deployed, NODE_ENV: 'test', PUBLIC_URL: 'http://127.0.0.1:4000', COOKIE_SECURE: undefined };
      expect(loadConfig(stack).cookieSecure).toBe(false);
    });

    it('leaves development and test without REDIS_URL on their fixed development secrets', () => {
      for (const NODE_ENV of [undefined, 'development', 'test']) {
        const c = loadConfig({ NODE_ENV });
        expect(c.sessionSecret).toBe(developmentSessionSecret);
        expect(c.jobSecretKey.equals(developmentJobKey)).toBe(true);
      }
    });
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
    const res = spawnSync(process.execPath, productProcessArgs('server', 'web'), {
      env: { ...process.env, NODE_ENV: 'production', REDIS_URL: '', SESSION_SECRET: '' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(res.status).toBe(1);
    expect(res.stderr).toMatch(/Invalid configuration/);
    expect(res.stderr).toMatch(/REDIS_URL is required in production/);
  });

  it('web refuses to start with REDIS_URL set and the development secret, naming SESSION_SECRET (the platform sets no NODE_ENV)', async () => {
    const { spawnSync } = await import('node:child_process');
    const res = spawnSync(process.execPath, productProcessArgs('server', 'web'), {
      env: {
        ...process.env,
        // Set nowhere: development by default.
        NODE_ENV: '',
        REDIS_URL: 'redis://127.0.0.1:6379',
        PUBLIC_URL: 'https://onboarding.example.se',
        COOKIE_SECURE: 'true',
        JOB_SECRET_KEY: 'ab'.repeat(32),
        SESSION_SECRET: 'development-only-session-secret-0123456789',
      },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(res.status).toBe(1);
    expect(res.stderr).toMatch(/Invalid configuration:\n {2}SESSION_SECRET: SESSION_SECRET is required whenever REDIS_URL is set/);
    expect(res.stderr, 'only the wrong setting is named').not.toMatch(/PUBLIC_URL|JOB_SECRET_KEY|COOKIE_SECURE/);
  });
});
