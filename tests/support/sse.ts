// A raw server-sent-events reader for tests (supertest would wait for the stream to end).
import http from 'node:http';
import type request from 'supertest';
import { expect } from 'vitest';

type Agent = ReturnType<typeof request.agent>;

/** A raw SSE reader: collects the text, answers once a condition on it holds. */
export interface Stream {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: () => string;
  messages: () => Array<Record<string, string>>;
  waitFor: (pred: (text: string) => boolean, ms?: number) => Promise<string>;
  ended: Promise<void>;
  close: () => void;
}

export function openStream(base: string, path: string, headers: Record<string, string> = {}): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = http.get(base + path, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      let text = '';
      const waiters = new Set<() => void>();
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        for (const w of waiters) w();
      });
      const ended = new Promise<void>((r) => res.on('end', () => r()));
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        text: () => text,
        messages: () => sseFrames(text),
        waitFor: (pred, ms = 3000) =>
          new Promise((ok, fail) => {
            const check = () => {
              if (pred(text)) {
                waiters.delete(check);
                clearTimeout(timer);
                ok(text);
              }
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`timed out; stream so far:\n${text}`));
            }, ms);
            waiters.add(check);
            check();
          }),
        ended,
        close: () => req.destroy(),
      });
    });
    req.on('error', (err) => {
      if ((err as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(err);
    });
  });
}

/** Splits a stream's text into frames: field → value, with `comment` for lines starting with a colon. */
export function sseFrames(text: string): Array<Record<string, string>> {
  return text
    .split('\n\n')
    .filter((block) => block.length > 0)
    .map((block) =>
      Object.fromEntries(
        block.split('\n').map((line) => {
          const i = line.indexOf(':');
          return [i === 0 ? 'comment' : line.slice(0, i), line.slice(i + 1).trim()];
        }),
      ),
    );
}

/**
 * Opens the creation page of the person of `agent` (which starts the run) and answers the run's final outcome as the
 * page's event stream tells it, within `ms`.
 */
export async function finalCreationOutcome(webUrl: string, agent: Agent, prospectId: string, ms: number): Promise<string> {
  const creationPage = `/onboarding/customer-creation/${encodeURIComponent(prospectId)}`;
  const access = { domain: '127.0.0.1', path: '/', secure: false, script: false } as Parameters<Agent['jar']['getCookie']>[1];
  const sid = agent.jar.getCookie('onb.sid', access);
  expect(sid).toBeDefined();
  await agent.get(creationPage).expect(200);
  const stream = await openStream(webUrl, `${creationPage}/events`, { cookie: `onb.sid=${sid!.value}` });
  const final = /"outcome":"(?!queued)(\w+)"/;
  try {
    const text = await stream.waitFor((t) => final.test(t), ms);
    return final.exec(text)![1]!;
  } finally {
    stream.close();
  }
}
