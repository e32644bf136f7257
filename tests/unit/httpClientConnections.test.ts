// An upstream client's own pool (server/upstream/http.ts `connections`): calls beyond its connections wait for one
// instead of opening more, and each answer still reaches its own call; the base URL's path and the query are kept.
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { createHttpClient } from '../../server/upstream/http.ts';

let server: Server;
let baseUrl: string;
const sockets = new Set<Socket>();
beforeAll(async () => {
  server = createServer((req, res) => {
    sockets.add(req.socket);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: req.url }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/base/`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

it('with `connections`, many calls at once share that many connections, each answered in turn', async () => {
  const client = createHttpClient({ name: 'test', baseUrl, timeoutMs: 5000, connections: 2 });
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) => client.json({ method: 'GET', path: '/status', query: { id: `p ${i}` }, schema: z.object({ url: z.string() }) })),
  );
  expect(answers.map((a) => a.data.url)).toEqual(Array.from({ length: 20 }, (_, i) => `/base/status?id=p+${i}`));
  expect(sockets.size).toBeLessThanOrEqual(2);
});
