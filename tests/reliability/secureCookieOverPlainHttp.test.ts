// In production mode over plain http, choosing Private reloaded the start page with no message: a browser never stores
// a Secure cookie an http page sets, so the session never started. Now the web process refuses to start with Secure
// cookies on a plain-http PUBLIC_URL other than loopback, and says why; on loopback (a TLS-terminating proxy may stand in
// front) it says so at start, and each page reached over http says so to the person. A real web process, started by the
// Procfile's own `web` line.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import request from 'supertest';
import { freePort, REDIS_URL } from '../support/stack.ts';

const production = {
  NODE_ENV: 'production',
  REDIS_URL,
  REDIS_PREFIX: 'test-secure-cookie',
  SESSION_SECRET: 'x'.repeat(40),
  JOB_SECRET_KEY: 'ab'.repeat(32),
  PORT: '0',
};

/** The Procfile's `web` command, as the platform runs it. */
const procfileWeb = /^web:\s*(.+)$/m.exec(readFileSync('Procfile', 'utf8'))?.[1];

/** Runs the Procfile's `web` line; answers its exit code and stderr, or 'listening' once it logs that it serves pages. */
function startWeb(env: Record<string, string>): Promise<{ code: number | 'listening'; stderr: string }> {
  if (!procfileWeb) throw new Error('the Procfile has no web line');
  return new Promise((resolve) => {
    // A process group of its own, so that the kill below reaches the web process the shell started.
    const child = spawn('/bin/sh', ['-c', procfileWeb], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      if (!d.toString().includes('"msg":"web started"')) return;
      process.kill(-child.pid!, 'SIGKILL');
      resolve({ code: 'listening', stderr });
    });
    child.once('exit', (code) => resolve({ code: code ?? 1, stderr }));
  });
}

describe('Secure cookies over a plain-http PUBLIC_URL', () => {
  it('the web process refuses to start, and says why and what to do', async () => {
    const { code, stderr } = await startWeb({ ...production, PUBLIC_URL: 'http://onboarding.example.se' });
    expect(code, 'the process exits instead of serving pages whose session never starts').toBe(1);
    expect(stderr).toMatch(/PUBLIC_URL http:\/\/onboarding\.example\.se is plain http, but cookies are Secure/);
    expect(stderr).toMatch(/https|COOKIE_SECURE=false/);
  });

  it('a plain-http test environment that turns Secure cookies off starts', async () => {
    const { code } = await startWeb({ ...production, PUBLIC_URL: 'http://onboarding.test', COOKIE_SECURE: 'false' });
    expect(code).toBe('listening');
  });
});

/** Starts the Procfile's `web` line and keeps it running: its URL, what it logged so far, and a stop. */
async function runWeb(env: Record<string, string>): Promise<{ url: string; stdout: () => string; stop: () => void }> {
  if (!procfileWeb) throw new Error('the Procfile has no web line');
  const port = await freePort();
  const child = spawn('/bin/sh', ['-c', procfileWeb], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  const stop = () => process.kill(-child.pid!, 'SIGKILL');
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stdout.includes('"msg":"web started"')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the web process exited (${code}) before it served pages`)));
  });
  return { url: `http://127.0.0.1:${port}`, stdout: () => stdout, stop };
}

describe('Secure cookies over a plain-http loopback PUBLIC_URL (allowed: a TLS-terminating proxy may stand in front)', () => {
  it('the process says at start, and each page says, that this browser gets no session; choosing Private shows why', async () => {
    const port = await freePort();
    const web = await runWeb({
      ...production,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'info',
      TRUST_PROXY: 'loopback',
      DEFAULT_LOCALE: 'en',
    });
    try {
      const warned = web
        .stdout()
        .split('\n')
        .filter((l) => l.includes('"level":40'));
      expect(warned.join('\n')).toMatch(/PUBLIC_URL http:\/\/127\.0\.0\.1:\d+ is plain http, but cookies are Secure/);
      const agent = request.agent(web.url);
      const start = await agent.get('/onboarding?lang=en').expect(200);
      expect(start.text).toContain('Your session cannot start');
      expect(start.text).toContain('Open the page over https instead.');
      // Choosing Private: no session cookie comes back, so the start page shows again, now saying why.
      const chosen = await agent.post('/onboarding/customer-type').set('sec-fetch-site', 'same-origin').type('form').send({ customerType: 'private' });
      expect(String(chosen.headers['set-cookie'] ?? '')).not.toMatch(/onb\.sid=/);
      const again = await agent.get(chosen.headers.location as string).expect(200);
      expect(again.text).toContain('Your session cannot start');
      // Behind a TLS-terminating proxy (trusted here on loopback) the same settings work: no notice, a session.
      const behindProxy = await request(web.url).get('/onboarding?lang=en').set('x-forwarded-proto', 'https').expect(200);
      expect(behindProxy.text).not.toContain('Your session cannot start');
    } finally {
      web.stop();
    }
  });
});
