// The settings a product process runs with in Redis mode, as on the PaaS (NODE_ENV=production, fresh secrets,
// plain-HTTP cookies on loopback, upstreams at the sandbox), and free loopback ports: shared by the tests' Redis
// stack (stack.ts) and `npm run bench`, so both start the product the same way. No test runner, no product imports.
import { createServer } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Redis-mode env of a web (and its worker and sandbox) on `webPort`, its upstreams the sandbox on `sandboxPort`. */
export function redisModeEnv(options: { redisUrl: string; prefix: string; webPort: number; sandboxPort: number }): Record<string, string> {
  const sandboxUrl = `http://127.0.0.1:${options.sandboxPort}`;
  return {
    NODE_ENV: 'production',
    REDIS_URL: options.redisUrl,
    REDIS_PREFIX: options.prefix,
    SESSION_SECRET: randomUUID() + randomUUID(),
    JOB_SECRET_KEY: randomBytes(32).toString('base64'),
    COOKIE_SECURE: 'false',
    PORT: String(options.webPort),
    PUBLIC_URL: `http://127.0.0.1:${options.webPort}`,
    SANDBOX_PORT: String(options.sandboxPort),
    BANKID_API_URL: sandboxUrl,
    BROKERAGE_API_URL: sandboxUrl,
    SIGNING_ORIGINS: sandboxUrl,
    SUCCESS_URL: `${sandboxUrl}/sandbox/overview`,
    BANK_SITE_URL: sandboxUrl,
    BANK_SITE_HANDOFF_PATH: '/sandbox/bank-site/login/handoff',
    // The tests' browsers stand behind a router on loopback: X-Forwarded-For names each one's address.
    TRUST_PROXY: 'loopback',
    OIDC_ISSUER_URL: `${sandboxUrl}/oidc`,
  };
}
