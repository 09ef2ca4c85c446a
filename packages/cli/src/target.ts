import { UsageError } from './errors.ts';

/** Where a command sends its requests: the environment API of one environment. */
export type Target = {
  environment: string;
  /** `-b` without a trailing slash, e.g. `https://acme-prod.example.com/grafx`. */
  baseUrl: string;
  /** `{base}/api/v1/environment/{environment}`. */
  environmentApi: string;
};

const FORM =
  '-b must look like https://<environment>.<domain>/<prefix>, e.g. https://acme-prod.example.com/grafx';

/** RFC 6761: `localhost` and every name under it is loopback, as is 127.0.0.1. */
export const isLoopbackHost = (hostname: string): boolean => {
  const host = hostname.toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '127.0.0.1';
};

const isIpAddress = (hostname: string): boolean =>
  /^\d+(\.\d+){3}$/.test(hostname) || hostname.startsWith('[');

/**
 * A loopback host that names no environment (`127.0.0.1`, `localhost`): a local server, which takes the environment
 * from the path alone, so `-e` is the one place that names it.
 */
const isUnlabelledLoopback = (hostname: string): boolean => {
  const host = hostname.toLowerCase();
  return host === 'localhost' || host === '127.0.0.1' || host === '[::1]';
};

/** The environment API under `-b`'s path, which must name the API prefix. */
const targetOf = (environment: string, url: URL): Target => {
  const prefix = url.pathname.replace(/\/+$/, '');
  if (prefix === '') {
    throw new UsageError(`${FORM}; add the API prefix to -b, e.g. ${url.origin}/grafx`);
  }
  const baseUrl = `${url.origin}${prefix}`;
  return {
    environment,
    baseUrl,
    environmentApi: `${baseUrl}/api/v1/environment/${encodeURIComponent(environment)}`,
  };
};

/**
 * Checks `-b` against `-e` (docs/connector-cli.md): https (http only for loopback), the environment as the first
 * host label (a loopback address or `localhost` has none to compare), and a path prefix. Everything a request would
 * otherwise fail on later is caught here.
 */
export const resolveTarget = (environment: string, base: string): Target => {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new UsageError(`${FORM}; got "${base}", which is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`${FORM}; got the scheme "${url.protocol.slice(0, -1)}"`);
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    // Named, not quoted: what is there may be a password or a token.
    const parts = [
      url.username !== '' || url.password !== '' ? 'the credentials' : '',
      url.search !== '' ? 'the query' : '',
      url.hash !== '' ? 'the fragment' : '',
    ].filter((part) => part !== '');
    throw new UsageError(
      `${FORM}; remove ${parts.join(' and ')} from ${url.protocol}//${url.host}${url.pathname}`,
    );
  }
  const hostname = url.hostname;
  if (isUnlabelledLoopback(hostname)) return targetOf(environment, url);
  if (isIpAddress(hostname)) {
    throw new UsageError(
      `-b names the host by IP address ${hostname}, so it cannot carry the environment; use a name such as http://${environment}.localhost${url.port ? `:${url.port}` : ''}${url.pathname}`,
    );
  }
  const labels = hostname.split('.');
  const first = labels[0] ?? '';
  if (labels.length < 2) {
    throw new UsageError(
      `${FORM}; the host "${hostname}" has no environment label (for a local server use http://${environment}.localhost${url.port ? `:${url.port}` : ''}/<prefix>)`,
    );
  }
  if (first.toLowerCase() !== environment.toLowerCase()) {
    throw new UsageError(
      `-e ${environment} does not match the environment "${first}" in -b ${base}; use the same environment in both`,
    );
  }
  if (url.protocol === 'http:' && !isLoopbackHost(hostname)) {
    throw new UsageError(`-b must use https for ${hostname}; http is allowed only for localhost`);
  }
  return targetOf(environment, url);
};
