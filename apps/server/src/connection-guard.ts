import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { BlockList, isIP, type Socket } from 'node:net';
import { announcesBody } from '@platform/api';
import { answerRaw } from './raw-answer.ts';

export type ConnectionGuardOptions = {
  /** A client that sends nothing for this long while the server waits for it is cut off (IDLE_TIMEOUT_SECONDS). */
  idleTimeoutMs: number;
  /** Connections one client address may hold at once (MAX_CONNECTIONS_PER_CLIENT). */
  perClient: number;
  /** Load balancers (TRUSTED_PROXIES): their connections carry many clients and are not counted. */
  trusted: BlockList;
};

/** What the server is waiting for on a connection. */
type Phase = 'head' | 'body' | 'server' | 'keep-alive';

type ConnectionState = {
  phase: Phase;
  arm(): void;
  request?: IncomingMessage;
  /** Whether this connection's bytes are watched one by one (a request body was read on it). */
  watched: boolean;
};

/** IPv4 clients of a dual-stack listener show as `::ffff:a.b.c.d`. */
export const clientAddress = (socket: Socket): string => {
  const address = socket.remoteAddress ?? '';
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
};

export const isTrusted = (trusted: BlockList, address: string): boolean => {
  const family = isIP(address);
  return family !== 0 && trusted.check(address, family === 4 ? 'ipv4' : 'ipv6');
};

/**
 * Connection hygiene on one listener (docs/configuration.md, "Connections"), with a timer of each connection's own
 * rather than Node's periodic sweep, so that a limit holds within milliseconds of the setting, whatever the load:
 *
 * - A new connection that has not sent a whole request head `idleTimeoutMs` after it opened is closed (answered 408).
 * - While the server reads a request body and nothing arrives for `idleTimeoutMs`, the connection is closed. While
 *   the server works (or has stopped reading a body it is not ready for), silence is not the client's; between
 *   requests a keep-alive connection is Node's `keepAliveTimeout`, and the head of a later request on it Node's
 *   `headersTimeout` (connectionSettings in platform.ts).
 * - One client address holds at most `perClient` connections: one more is answered 429 with `Retry-After` and
 *   closed at once, so that one client cannot take every slot of MAX_CONNECTIONS from the others.
 *
 * Bytes are watched (a `data` listener on the socket) only once a request body is read on the connection: such a
 * listener moves every later byte of the connection from Node's native HTTP parser to JavaScript (Node "unconsumes"
 * the socket), which cost a twentieth of every proxied GET's CPU when every connection had one.
 */
export const guardConnections = (server: Server, options: ConnectionGuardOptions): void => {
  const open = new Map<string, number>();
  const states = new WeakMap<Socket, ConnectionState>();

  server.on('connection', (socket: Socket) => {
    const address = clientAddress(socket);
    if (!isTrusted(options.trusted, address)) {
      const held = open.get(address) ?? 0;
      if (held >= options.perClient) {
        answerRaw(
          socket,
          429,
          `This client already holds ${options.perClient} connections, the most one client may hold; reuse them (keep-alive) or retry shortly.`,
          { headers: { 'Retry-After': '1' } },
        );
        return;
      }
      open.set(address, held + 1);
      socket.once('close', () => {
        const left = (open.get(address) ?? 1) - 1;
        if (left <= 0) open.delete(address);
        else open.set(address, left);
      });
    }

    // One timer per connection, restarted in place (no new timer object per request).
    const timer = setTimeout(() => silent(), options.idleTimeoutMs);
    timer.unref();
    const state: ConnectionState = {
      phase: 'head',
      arm: () => {
        timer.refresh();
      },
      watched: false,
    };
    const silent = () => {
      if (state.phase === 'head') {
        const responding = (socket as Socket & { _httpMessage?: unknown })._httpMessage;
        if (responding || !socket.writable) socket.destroy();
        else answerRaw(socket, 408, 'The request headers did not arrive in time; send the request again.');
        return;
      }
      if (state.phase !== 'body') return;
      const req = state.request;
      if (req?.complete) {
        state.phase = 'server';
        return;
      }
      // Bytes received and not yet taken by the route (it works, or passes the body on to a slow peer): the wait
      // is the server's, not the client's silence.
      if (req && req.readableLength > 0) {
        state.arm();
        return;
      }
      socket.destroy();
    };
    states.set(socket, state);
    socket.once('close', () => clearTimeout(timer));
  });

  server.on('request', (req: IncomingMessage, res) => {
    const state = states.get(req.socket);
    if (!state) return;
    state.request = req;
    // Whether a body is to come is known from the head: `complete` only turns true once the parser has seen the end.
    state.phase = announcesBody(req) && !req.complete ? 'body' : 'server';
    if (state.phase === 'body') {
      if (!state.watched) {
        state.watched = true;
        req.socket.on('data', () => {
          if (state.phase === 'body') state.arm();
        });
      }
      state.arm();
    }
    res.on('finish', answered);
  });
  function answered(this: ServerResponse) {
    const state = states.get(this.req.socket);
    if (!state) return;
    state.phase = 'keep-alive';
    state.request = undefined;
  }
};

/** TRUSTED_PROXIES as a BlockList: addresses (`10.0.0.5`) and ranges (`10.0.0.0/8`, `fd00::/8`). */
export const trustedProxies = (entries: readonly string[]): BlockList => {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list;
};
