import { testBackends } from '@platform/store/testing';
import { describe, expect, it } from 'vitest';
import { ENV_PROD, USERS } from '../support/fixture.ts';
import { connectorBody, environmentApi, envPath, expectFields, expectProblem } from './support.ts';

type Connector = {
  id: string;
  name: string;
  enabled: boolean;
  default: boolean;
  allowedDomains: string[];
  supportedAuthentication: { browser: string[]; server: string[] };
  createdAt: string;
  updatedAt: string;
};

describe.each(await testBackends())('connectors on $name', (backend) => {
  const { call } = environmentApi(backend);
  const owner = { user: USERS.owner };
  const base = envPath('acme-prod');

  it('publishes, lists, reads, republishes, patches and deletes a connector', async () => {
    const published = await call<Connector>('POST', `${base}/connectors`, {
      ...owner,
      body: connectorBody(),
    });
    expect(published.status).toBe(201);
    const connector = published.body;
    expect(connector).toMatchObject({
      name: 'Acme DAM',
      enabled: true,
      default: false,
      allowedDomains: ['api.acme.example', '*.cdn.acme.example'],
      proxyOptions: { forwardedHeaders: true },
      supportedAuthentication: {
        browser: [
          'staticKey',
          'oAuth2ClientCredentials',
          'oAuth2AuthorizationCode',
          'oAuth2ResourceOwnerPassword',
          'oAuth2JwtBearer',
        ],
        server: ['staticKey', 'oAuth2ClientCredentials', 'oAuth2ResourceOwnerPassword', 'oAuth2JwtBearer'],
      },
    });
    expect(published.text).not.toContain('export default');

    // The environment by guid, by technical name in any case, and at the experimental path.
    for (const path of [
      `${envPath(ENV_PROD)}/connectors`,
      `${envPath('ACME-Prod')}/connectors`,
      '/grafx/api/experimental/environment/acme-prod/connectors',
    ]) {
      const list = await call<{ data: Connector[] }>('GET', path, owner);
      expect(list.status).toBe(200);
      expect(list.body.data.map((c) => c.id)).toContain(connector.id);
    }
    const got = await call<Connector>('GET', `${base}/connectors/${connector.id.toUpperCase()}`, owner);
    expect(got.body).toEqual(connector);

    const republished = await call<Connector>('PUT', `${base}/connectors/${connector.id}`, {
      ...owner,
      body: connectorBody({ version: '1.1.0', supportedAuth: ['staticKey', 'staticKey'] }),
    });
    expect(republished.status).toBe(200);
    expect(republished.body).toMatchObject({
      id: connector.id,
      version: '1.1.0',
      createdAt: connector.createdAt,
      supportedAuthentication: { browser: ['staticKey'], server: ['staticKey'] },
    });

    const patched = await call<Connector>('PATCH', `${base}/connectors/${connector.id}`, {
      ...owner,
      body: { enabled: false, default: true, name: 'Renamed' },
    });
    expect(patched.body).toMatchObject({ enabled: false, default: true, name: 'Renamed', version: '1.1.0' });
    const unchanged = await call<Connector>('PATCH', `${base}/connectors/${connector.id}`, {
      ...owner,
      body: {},
    });
    expect(unchanged.body).toEqual(patched.body);

    const deleted = await call('DELETE', `${base}/connectors/${connector.id}`, owner);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expectProblem(await call('GET', `${base}/connectors/${connector.id}`, owner), 404);
    expectProblem(await call('DELETE', `${base}/connectors/${connector.id}`, owner), 404);
  });

  it('refuses a republish that drops a type an authorization uses (409)', async () => {
    const { body: connector } = await call<Connector>('POST', `${base}/connectors`, {
      ...owner,
      body: connectorBody(),
    });
    const set = await call('PUT', `${base}/connectors/${connector.id}/auth/static`, {
      ...owner,
      body: { usage: 'server', key: 'X-Api-Key', value: 'republish-secret-1' },
    });
    expect(set.status).toBe(200);
    const refused = expectProblem(
      await call('PUT', `${base}/connectors/${connector.id}`, {
        ...owner,
        body: connectorBody({ supportedAuth: ['oAuth2ClientCredentials'] }),
      }),
      409,
    );
    expect(refused.detail).toContain('server (staticKey)');
  });

  it('answers 400 naming each bad field of a publish body', async () => {
    expectFields(
      await call('POST', `${base}/connectors`, {
        ...owner,
        body: connectorBody({
          type: 'video',
          allowedDomains: ['https://x.example', '*'],
          supportedAuth: ['basic'],
          surprise: 1,
        }),
      }),
      ['type', 'allowedDomains[0]', 'allowedDomains[1]', 'supportedAuth[0]', 'surprise'],
    );
    expectFields(
      await call('POST', `${base}/connectors`, { ...owner, body: connectorBody({ allowedDomains: [] }) }),
      ['allowedDomains'],
    );
    const { name: _name, script: _script, ...missing } = connectorBody();
    expectFields(await call('POST', `${base}/connectors`, { ...owner, body: missing }), ['name', 'script']);
    expectFields(await call('POST', `${base}/connectors`, { ...owner, raw: '{"name":' }), ['body']);
    expectFields(await call('POST', `${base}/connectors`, owner), ['body']);
    const { body: connector } = await call<Connector>('POST', `${base}/connectors`, {
      ...owner,
      body: connectorBody(),
    });
    expectFields(
      await call('PATCH', `${base}/connectors/${connector.id}`, {
        ...owner,
        body: { enabled: 'yes', version: '2' },
      }),
      ['enabled', 'version'],
    );
  });

  it('accepts an https:// or http:// iconUrl only, at publish and republish', async () => {
    for (const iconUrl of [
      'javascript:alert(1)',
      'data:image/svg+xml,<svg/>',
      'file:///etc/passwd',
      'ftp://x.example/i.png',
      '/icon.png',
    ]) {
      expectFields(await call('POST', `${base}/connectors`, { ...owner, body: connectorBody({ iconUrl }) }), [
        'iconUrl',
      ]);
    }
    const published = await call<Connector & { iconUrl: string }>('POST', `${base}/connectors`, {
      ...owner,
      body: connectorBody({ iconUrl: 'https://cdn.example/icon.png' }),
    });
    expect(published.status).toBe(201);
    expect(published.body.iconUrl).toBe('https://cdn.example/icon.png');
    expectFields(
      await call('PUT', `${base}/connectors/${published.body.id}`, {
        ...owner,
        body: connectorBody({ iconUrl: 'javascript:alert(document.cookie)' }),
      }),
      ['iconUrl'],
    );
    const republished = await call<Connector & { iconUrl: string }>(
      'PUT',
      `${base}/connectors/${published.body.id}`,
      {
        ...owner,
        body: connectorBody({ iconUrl: 'http://cdn.example/icon.png' }),
      },
    );
    expect(republished.status).toBe(200);
    expect(republished.body.iconUrl).toBe('http://cdn.example/icon.png');
  });

  it('refuses a wildcard above a public suffix and an IP address not in dotted decimal, at publish and republish', async () => {
    const refused = ['*.com', '*.co.uk', '*.github.io', '0x7f000001', '2130706433', '0177.0.0.1', '127.1'];
    const accepted = [
      'api.acme.example',
      '*.example.co.uk',
      '*.acme.github.io',
      '127.0.0.1',
      '127.0.0.1:8443',
    ];
    const publishing = expectFields(
      await call('POST', `${base}/connectors`, {
        ...owner,
        body: connectorBody({ allowedDomains: [...accepted, ...refused] }),
      }),
      refused.map((_, i) => `allowedDomains[${accepted.length + i}]`),
    );
    // Each message names its entry.
    refused.forEach((entry, i) => {
      expect(publishing.errors?.[`allowedDomains[${accepted.length + i}]`]?.[0]).toContain(entry);
    });
    expect(publishing.errors?.['allowedDomains[0]']).toBeUndefined();
    const published = await call<Connector>('POST', `${base}/connectors`, {
      ...owner,
      body: connectorBody({ allowedDomains: accepted }),
    });
    expect(published.status).toBe(201);
    expect(published.body.allowedDomains).toEqual(accepted);
    const republishing = expectFields(
      await call('PUT', `${base}/connectors/${published.body.id}`, {
        ...owner,
        body: connectorBody({ allowedDomains: ['*.com'] }),
      }),
      ['allowedDomains[0]'],
    );
    expect(republishing.errors?.['allowedDomains[0]']?.[0]).toContain('Public Suffix List');
  });

  it('answers 404 for unknown, malformed and foreign connector ids and unknown environments', async () => {
    const unknown = '00000000-0000-4000-8000-00000000abcd';
    expectProblem(await call('GET', `${base}/connectors/${unknown}`, owner), 404);
    expectProblem(await call('GET', `${base}/connectors/not-a-guid`, owner), 404);
    expectProblem(await call('PATCH', `${base}/connectors/not-a-guid`, { ...owner, body: {} }), 404);
    expectProblem(await call('GET', `${envPath('no-such-env')}/connectors`, owner), 404);
    expectProblem(
      await call('GET', `${envPath('00000000-0000-4000-8000-000000000999')}/connectors`, owner),
      404,
    );
    // A connector of another environment of the same subscription is not found through this one.
    const { body: connector } = await call<Connector>('POST', `${base}/connectors`, {
      ...owner,
      body: connectorBody(),
    });
    expectProblem(await call('GET', `${envPath('acme-sandbox')}/connectors/${connector.id}`, owner), 404);
    expectProblem(await call('DELETE', `${envPath('acme-sandbox')}/connectors/${connector.id}`, owner), 404);
  });

  it('takes iconUrl "" as no icon, at publish and republish (the platform\'s URL connector ships it)', async () => {
    const published = await call<Connector & { iconUrl: string | null }>('POST', `${base}/connectors`, {
      ...owner,
      body: connectorBody({ iconUrl: '' }),
    });
    expect(published.status).toBe(201);
    expect(published.body.iconUrl).toBeNull();
    const path = `${base}/connectors/${published.body.id}`;
    const withIcon = await call<Connector & { iconUrl: string | null }>('PUT', path, {
      ...owner,
      body: connectorBody({ iconUrl: 'https://cdn.example/icon.png' }),
    });
    expect(withIcon.body.iconUrl).toBe('https://cdn.example/icon.png');
    const cleared = await call<Connector & { iconUrl: string | null }>('PUT', path, {
      ...owner,
      body: connectorBody({ iconUrl: '' }),
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body.iconUrl).toBeNull();
    expect((await call<Connector & { iconUrl: string | null }>('GET', path, owner)).body.iconUrl).toBeNull();
  });
});
