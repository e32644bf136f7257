// Starts the sandbox HTTP server. Importable (tests, dev scripts) or runnable: `tsx sandbox/main.ts`
// listens on SANDBOX_PORT (default 3001).
import { realpathSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createSandboxApp } from './app.ts';
import { keepDaysOption } from './keptProspects.ts';

export interface StartSandboxOptions {
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /** Defaults to http://<host>:<actual port>. */
  publicUrl?: string;
  orderLifetimeMs?: number;
  /** How long a signing order can be signed on the signing page (default 5 minutes). */
  signingLifetimeMs?: number;
  /** How many days a person's unfinished prospect is kept (default 90; SANDBOX_PROSPECT_KEEP_DAYS when run). */
  prospectKeepDays?: number;
}

export interface RunningSandbox {
  url: string;
  close(): Promise<void>;
}

export async function startSandbox(options: StartSandboxOptions): Promise<RunningSandbox> {
  const host = options.host ?? '127.0.0.1';
  // Listen first and attach the app afterwards: with port 0 the public URL is only known once bound.
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const app = createSandboxApp({
    publicUrl: options.publicUrl ?? url,
    ...(options.orderLifetimeMs !== undefined ? { orderLifetimeMs: options.orderLifetimeMs } : {}),
    ...(options.signingLifetimeMs !== undefined ? { signingLifetimeMs: options.signingLifetimeMs } : {}),
    ...(options.prospectKeepDays !== undefined ? { prospectKeepDays: options.prospectKeepDays } : {}),
  });
  server.on('request', app);

  return {
    url,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // Keep-alive connections would otherwise hold close() open.
        server.closeAllConnections();
      }),
  };
}

function isMainModule(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMainModule()) {
  const port = Number(process.env.SANDBOX_PORT ?? 3001);
  const sandbox = await startSandbox({
    port,
    ...(process.env.SANDBOX_HOST ? { host: process.env.SANDBOX_HOST } : {}),
    ...(process.env.SANDBOX_PUBLIC_URL ? { publicUrl: process.env.SANDBOX_PUBLIC_URL } : {}),
    // The web's signing order lifetime, so the signing page expires its orders as the web expects.
    ...(process.env.SIGNING_ORDER_LIFETIME_MS ? { signingLifetimeMs: Number(process.env.SIGNING_ORDER_LIFETIME_MS) } : {}),
    ...keepDaysOption(process.env),
    // A BankID order's lifetime (default 30 s, as the real service's): the tests' own, longer than a test on a busy machine.
    ...(process.env.BANKID_ORDER_LIFETIME_MS ? { orderLifetimeMs: Number(process.env.BANKID_ORDER_LIFETIME_MS) } : {}),
  });
  console.log(`Sandbox listening on ${sandbox.url} (test BankID app: ${sandbox.url}/sandbox/bankid/app)`);
  const stop = () => void sandbox.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
