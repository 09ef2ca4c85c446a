import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';
import { pgStatementReader } from './pg-statements.ts';

export type TcpForwarder = {
  port: number;
  /** Cuts every open connection (RST) and refuses new ones: the database "goes away". */
  cut(): void;
  /** Accepts and forwards again. */
  restore(): void;
  /** The statements the clients have sent so far, in order (read from the PostgreSQL frontend protocol). */
  statements(): readonly string[];
  close(): Promise<void>;
};

/** A TCP forwarder on loopback to `host:port`, to take a database away from a running server and bring it back. */
export const startTcpForwarder = async (host: string, port: number): Promise<TcpForwarder> => {
  const open = new Set<Socket>();
  let up = true;
  const statements: string[] = [];
  const server = createServer((client) => {
    if (!up) {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(port, host);
    open.add(client);
    open.add(upstream);
    const drop = () => {
      open.delete(client);
      open.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop);
    upstream.on('error', drop);
    client.on('close', drop);
    upstream.on('close', drop);
    const read = pgStatementReader((text) => statements.push(text));
    client.on('data', (chunk: Buffer) => read(chunk));
    client.pipe(upstream);
    upstream.pipe(client);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as { port: number }).port,
    cut: () => {
      up = false;
      for (const socket of open) socket.resetAndDestroy();
      open.clear();
    },
    restore: () => {
      up = true;
    },
    statements: () => statements,
    close: async () => {
      for (const socket of open) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
};
