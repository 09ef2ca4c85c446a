import type { RedirectMode } from '@platform/runtime';

/**
 * The debug page's one way out: `POST /relay` on the debug server with the sandbox's request, answered with the
 * upstream's response. Bodies travel as base64 so images arrive intact. Shared by the page (browser) and the server.
 */
export type RelayRequest = {
  url: string;
  method: string;
  headers: Record<string, string>;
  /** base64, or null for no body. */
  body: string | null;
  /** Fetch's redirect mode; absent: follow. */
  redirect?: RedirectMode;
};

export type RelayResponse = {
  status: number;
  statusText: string;
  url: string;
  redirected: boolean;
  headers: Record<string, string>;
  body: string;
  /**
   * Whether the request carried credentials it was not sent with: false from this machine (nothing is added), absent
   * through the platform's proxy, which injects them server-side and does not say whether it did.
   */
  credentialsInjected?: boolean;
};

/** A relay failure the page shows as the fetch's error. */
export type RelayFailure = { error: string };

export const toBase64 = (bytes: Uint8Array): string => {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
};

export const fromBase64 = (text: string): Uint8Array => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
