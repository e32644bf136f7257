// A process's memory after a full garbage collection, read over its inspector (the process runs with
// --inspect=127.0.0.1:PORT): RSS alone moves with whenever V8 last collected, so `npm run bench:peak` reads both.
// Prints {"rss":…,"heapUsed":…,"external":…} in bytes. Node 20 has WebSocket behind --experimental-websocket.
//   node --experimental-websocket bench/inspectMemory.mjs PORT
const [port] = process.argv.slice(2);
const [target] = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
const socket = new WebSocket(target.webSocketDebuggerUrl);
await new Promise((resolve, reject) => {
  socket.onopen = resolve;
  socket.onerror = reject;
});
let lastId = 0;
const call = (method, params = {}) =>
  new Promise((resolve) => {
    const id = ++lastId;
    const answer = (event) => {
      const message = JSON.parse(event.data);
      if (message.id !== id) return;
      socket.removeEventListener('message', answer);
      resolve(message.result);
    };
    socket.addEventListener('message', answer);
    socket.send(JSON.stringify({ id, method, params }));
  });
await call('HeapProfiler.collectGarbage');
await call('HeapProfiler.collectGarbage');
const { result } = await call('Runtime.evaluate', {
  expression: 'JSON.stringify((({ rss, heapUsed, external }) => ({ rss, heapUsed, external }))(process.memoryUsage()))',
  returnByValue: true,
});
process.stdout.write(`${result.value}\n`);
socket.close();
