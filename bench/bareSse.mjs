// The baseline of the streams in `npm run bench:peak`: a bare node:http server-sent-events server.
// GET /events opens a stream (the product's headers and retry line); POST /broadcast writes one event to every open
// stream. Prints "listening" once it listens.
//   node bench/bareSse.mjs PORT
import { createServer } from 'node:http';

const port = Number(process.argv[2]);
const streams = new Set();
let id = 0;
createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/events') {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive' });
    res.write('retry: 2000\n\n');
    streams.add(res);
    res.on('close', () => streams.delete(res));
    return;
  }
  if (req.method === 'POST' && req.url === '/broadcast') {
    const event = `id: ${++id}\nevent: creation\ndata: ${JSON.stringify({ outcome: 'done', attempt: id })}\n\n`;
    for (const s of streams) s.write(event);
    res.writeHead(204).end();
    return;
  }
  res.writeHead(404).end();
}).listen(port, '127.0.0.1', () => process.stdout.write('listening\n'));
