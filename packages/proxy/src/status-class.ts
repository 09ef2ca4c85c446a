// The same strings every time: a label is then found in a map without being built and hashed again.
const CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'];

/**
 * The class of an HTTP status for a metric label: `1xx` to `5xx`, and `other` for anything else a peer can send
 * (600 to 999), so that a target cannot add series by inventing statuses.
 */
export const statusClass = (status: number): string =>
  Number.isInteger(status) && status >= 100 && status <= 599
    ? (CLASSES[Math.floor(status / 100) - 1] as string)
    : 'other';
