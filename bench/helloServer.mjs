// The baselines of `npm run bench`: the smallest answer an Express app and Node's own http server give on this
// Node, so each page's throughput reads as a ratio to them.
//   node bench/helloServer.mjs express|http PORT
import { createServer } from 'node:http';
import express from 'express';

const [kind, port] = process.argv.slice(2);
const hello = 'hello';
const listening = () => process.stdout.write(`listening ${kind} ${port}\n`);

if (kind === 'express') {
  const app = express();
  app.get('/', (_req, res) => {
    res.send(hello);
  });
  app.listen(Number(port), '127.0.0.1', listening);
} else if (kind === 'http') {
  createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(hello) });
    res.end(hello);
  }).listen(Number(port), '127.0.0.1', listening);
} else {
  process.stderr.write('usage: node bench/helloServer.mjs express|http PORT\n');
  process.exit(2);
}
