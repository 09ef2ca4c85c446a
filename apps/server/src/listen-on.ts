import { once } from 'node:events';
import type { Server } from 'node:net';

/** A port another process holds, named by the setting that chose it (PORT, METRICS_PORT). */
export class PortInUseError extends Error {
  override name = 'PortInUseError';
  constructor(
    readonly variable: string,
    readonly port: number,
    readonly host: string,
  ) {
    super(
      `${variable} ${port} on ${host} is in use by another process: stop it, or set ${variable} to a free port.`,
    );
  }
}

/** `server.listen`, resolved once listening; a port in use is a PortInUseError naming `variable`. */
export const listenOn = async (
  server: Server,
  port: number,
  host: string,
  variable: string,
): Promise<void> => {
  server.listen(port, host);
  try {
    await once(server, 'listening');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new PortInUseError(variable, port, host);
    throw error;
  }
};
