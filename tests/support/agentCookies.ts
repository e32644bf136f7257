// The cookies a supertest agent holds for the web process, for a browser (or a raw request) to carry on as the person
// whose journey went over HTTP so far.
import type request from 'supertest';

/** The agent's cookies for `webUrl`, as Playwright's context.addCookies takes them. */
export function agentCookies(agent: ReturnType<typeof request.agent>, webUrl: string): Array<{ name: string; value: string; url: string }> {
  const access = { domain: new URL(webUrl).hostname, path: '/', secure: false, script: false } as Parameters<typeof agent.jar.getCookies>[0];
  return agent.jar.getCookies(access).map((c) => ({ name: c.name, value: c.value, url: webUrl }));
}
