// Issue 17 item 14: in production mode over plain http, choosing Private reloaded the start page with no
// message. The session cookie is Secure in production, a browser never stores a Secure cookie an http page
// sets (loopback aside), so the session never started. Now the web process refuses to start with Secure
// cookies on a plain-http PUBLIC_URL other than loopback, and says why (server/config.ts).
// A real web process, started by the Procfile's own `web` line (from the compiled build).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REDIS_URL } from '../support/stack.ts';

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
