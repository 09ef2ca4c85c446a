// The floor of any proxy written on Node's HTTP stack, as an anchor of the user-path bench: Node's http server and an
// undici Pool to one upstream, the same static header injected, the answer streamed back; nothing else (no token,
// no environment, no rules, no log, no metrics). Started by bare-node-proxy.ts in a process of its own; prints its
// URL on standard output. Plain JavaScript so that it runs without the bench's TypeScript loader.
import { createServer } from 'node:http';
import { Pool } from 'undici';

const [upstream, name, value] = process.argv.slice(2);
const pool = new Pool(upstream, { connections: 128 });
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding']);

const server = createServer((req, res) => {
  const headers = { ...req.headers, [name.toLowerCase()]: value };
  delete headers.host;
  delete headers.connection;
  pool
    .stream({ path: req.url, method: req.method, headers }, ({ statusCode, headers: answer }) => {
      const kept = {};
      for (const key in answer) if (!HOP_BY_HOP.has(key)) kept[key] = answer[key];
      res.writeHead(statusCode, kept);
      return res;
    })
    .catch(() => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${server.address().port}\n`));
process.on('SIGTERM', () => process.exit(0));
