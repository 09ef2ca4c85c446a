import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const NGINX = '/usr/sbin/nginx';

export type Nginx = { url: string; stop(): Promise<void> };

/** A port the kernel has just handed out and released: nginx cannot be asked for port 0 and tell which it got. */
const freePort = async (): Promise<number> => {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
};

/**
 * Debian's nginx as the anchor of the proxy route: one worker, keep-alive to the upstream, the same header
 * injection (one static key header), in a prefix and configuration of its own under a temporary folder. When it
 * cannot run (not installed, did not start), the reason, as text, instead.
 */
export const startNginx = async (
  upstream: string,
  header: { name: string; value: string },
): Promise<Nginx | string> => {
  if (!existsSync(NGINX)) return `${NGINX} is not installed (apt-get install nginx-light)`;
  const prefix = await mkdtemp(join(tmpdir(), 'bench-nginx-'));
  await mkdir(join(prefix, 'logs'));
  const port = await freePort();
  const target = new URL(upstream);
  const temp = (name: string) => `${name}_temp_path ${join(prefix, name)};`;
  await writeFile(
    join(prefix, 'nginx.conf'),
    `worker_processes 1;
daemon off;
pid ${join(prefix, 'nginx.pid')};
error_log ${join(prefix, 'logs', 'error.log')} warn;
events { worker_connections 4096; }
http {
  access_log off;
  ${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}
  upstream target { server ${target.host}; keepalive 64; keepalive_requests 1000000; }
  server {
    listen 127.0.0.1:${port};
    # nginx closes a client connection after 1,000 requests by default: the load generator counts the request in
    # flight then as an error, and reconnecting would cost the anchor what the platform's keep-alive never pays.
    keepalive_requests 1000000;
    location / {
      proxy_pass http://target;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header ${header.name} "${header.value}";
    }
  }
}
`,
  );
  const child: ChildProcess = spawn(
    NGINX,
    ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-e', join(prefix, 'logs', 'error.log')],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const errors: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => errors.push(chunk.toString()));
  const exited = once(child, 'exit');
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) return `nginx exited: ${errors.join('')}`;
    try {
      if ((await fetch(`${url}/ready`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      return 'nginx did not answer within 10 s';
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      await rm(prefix, { recursive: true, force: true });
    },
  };
};
