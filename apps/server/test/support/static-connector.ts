/**
 * Publishes a connector with an empty script that may reach 127.0.0.1, and gives it a static key for the browser
 * usage, through the environment API at `environmentUrl` (`.../grafx/api/v1/environment/{environment}`); its id.
 */
export const publishStaticKeyConnector = async (
  environmentUrl: string,
  authorization: string,
  connector: { name: string; key: string; value: string },
): Promise<string> => {
  const headers = { authorization, 'content-type': 'application/json' };
  const created = await fetch(`${environmentUrl}/connectors`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      name: connector.name,
      version: '1.0.0',
      type: 'data',
      script: 'export default class Connector {}',
      allowedDomains: ['127.0.0.1'],
      supportedAuth: ['staticKey'],
    }),
  });
  if (created.status !== 201)
    throw new Error(`publishing ${connector.name}: ${created.status} ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  const auth = await fetch(`${environmentUrl}/connectors/${id}/auth/static`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ usage: 'browser', key: connector.key, value: connector.value }),
  });
  if (!auth.ok) throw new Error(`the static key of ${connector.name}: ${auth.status} ${await auth.text()}`);
  return id;
};
