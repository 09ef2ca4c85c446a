import pg from 'pg';
import type { ChangeWatch } from './types.ts';

const RECONNECT_MS = 1000;
/** A connection can die without a reset reaching us (a partition): a periodic query finds out. */
const PROBE_MS = 10_000;
const PROBE_TIMEOUT_MS = 5000;

/**
 * LISTEN to `channel` on a connection of its own (a pooled one would be handed to queries). When it is lost, `live`
 * turns false until a new connection listens again: notifications sent meanwhile are gone, so both turns call
 * `onChange` without a payload.
 */
export const watchPostgresChannel = async (
  url: string,
  channel: string,
  onChange: (payload?: string) => void,
): Promise<ChangeWatch> => {
  let current: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let probe: NodeJS.Timeout | undefined;

  const lose = (client: pg.Client) => {
    if (current !== client) return;
    current = undefined;
    clearInterval(probe);
    onChange();
    client.end().catch(() => {});
    schedule();
  };
  const schedule = () => {
    if (!stopped) retry = setTimeout(connect, RECONNECT_MS).unref();
  };
  const connect = async () => {
    const client = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: PROBE_TIMEOUT_MS,
      query_timeout: PROBE_TIMEOUT_MS,
    });
    // 'error' comes before 'end' on a broken connection; 'end' alone decides.
    client.on('error', () => {});
    client.on('end', () => lose(client));
    client.on('notification', (message) => {
      if (message.channel === channel) onChange(message.payload ?? '');
    });
    try {
      await client.connect();
      await client.query(`listen ${channel}`);
    } catch {
      client.end().catch(() => {});
      schedule();
      return;
    }
    if (stopped) {
      await client.end().catch(() => {});
      return;
    }
    current = client;
    onChange();
    probe = setInterval(() => {
      client.query('select 1').catch(() => lose(client));
    }, PROBE_MS).unref();
  };

  await connect();
  return {
    get live() {
      return current !== undefined;
    },
    async stop() {
      stopped = true;
      clearTimeout(retry);
      clearInterval(probe);
      const client = current;
      current = undefined;
      await client?.end().catch(() => {});
    },
  };
};
