/** What platform-server writes into the page: the OpenID issuer and the console's public client id. */
export type ConsoleSettings = { issuer: string; clientId: string };

export const readSettings = (): ConsoleSettings | undefined => {
  const content = document.querySelector('meta[name="platform-console-config"]')?.getAttribute('content');
  try {
    const parsed = JSON.parse(content ?? '{}') as Partial<ConsoleSettings>;
    return parsed.issuer && parsed.clientId
      ? { issuer: parsed.issuer, clientId: parsed.clientId }
      : undefined;
  } catch {
    return undefined;
  }
};
