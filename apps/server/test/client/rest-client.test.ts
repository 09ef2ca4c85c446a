import { createPlatformClient, createRestClient, PlatformApiError } from '@platform/client';
import { testBackends } from '@platform/store/testing';
import { describe, expect, it } from 'vitest';
import { ENV_PROD, SUB_A, USERS } from '../support/fixture.ts';
import { json, seededPlatform } from '../support/seeded.ts';

const rejection = async (promise: Promise<unknown>): Promise<PlatformApiError> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof PlatformApiError))
    throw new Error(`expected a PlatformApiError, got ${String(error)}`);
  return error;
};

describe.each(await testBackends())('the REST client of @platform/client on $name', (backend) => {
  const s = seededPlatform(backend);

  it('answers what the REST API and the tRPC client answer', async () => {
    const token = await s.tp.token(USERS.owner);
    const rest = createRestClient({ baseUrl: `${s.tp.url}/`, token });
    const trpc = createPlatformClient(s.tp.url, () => token);
    expect((await rest.subscriptions.list()).map((sub) => sub.guid)).toContain(SUB_A);
    expect(await rest.subscriptions.get({ subscriptionId: SUB_A })).toEqual(
      await trpc.subscriptions.get.query({ subscriptionId: SUB_A }),
    );
    const renders = await rest.subscriptions.renders({ subscriptionId: SUB_A, groupBy: 'year', top: 1 });
    expect(renders).toEqual(
      await json(await s.tp.call(`/api/v1/subscriptions/${SUB_A}/renders?groupBy=year&top=1`, { token })),
    );
    expect(renders.length).toBeGreaterThan(0);
    expect(await rest.environments.get({ environmentId: ENV_PROD })).toMatchObject({ guid: ENV_PROD });
    expect((await rest.info.get()).data.serverVersion).toEqual(expect.any(String));
    expect(await rest.info.ping()).toBeUndefined();
  });

  it('sends bodies and reads empty answers', async () => {
    const token = await s.tp.token(USERS.owner);
    const server: string[] = [];
    const rest = createRestClient({
      baseUrl: s.tp.url,
      token,
      fetch: (url, init) => {
        server.push(String(url));
        return fetch(url, init);
      },
    });
    expect(
      await rest.idpDomains.set({ subscriptionId: SUB_A, body: ['Example.com.', 'partner.example'] }),
    ).toBeUndefined();
    expect(await rest.idpDomains.get({ subscriptionId: SUB_A })).toEqual(['example.com', 'partner.example']);
    const tag = await rest.tags.create({ environment: ENV_PROD, body: { name: 'From the client' } });
    expect((await rest.tags.list({ environment: ENV_PROD })).data).toContainEqual(tag);
    expect(await rest.tags.delete({ environment: ENV_PROD, tagId: tag.id })).toBeUndefined();
    // A path parameter of '.' or '..' (an external media id may be one) cannot travel in a URL path, whose dot
    // segments every URL resolves away: refused before anything is sent, naming the parameter, while tRPC carries it.
    const trpc = createPlatformClient(s.tp.url, () => token);
    const { subjectTypes } = await rest.vision.get({ environment: ENV_PROD });
    const subjectTypeId = subjectTypes[0]!.id;
    const body = { subjectTypes: [{ id: subjectTypeId, assigned: true }] };
    for (const externalMediaId of ['.', '..']) {
      const sent = server.length;
      await expect(
        rest.externalMedia.updateSubjectTypes({ environment: ENV_PROD, externalMediaId, body }),
      ).rejects.toThrow(`externalMediaId "${externalMediaId}" cannot be sent in a URL path`);
      expect(server.length).toBe(sent);
      expect(
        await trpc.externalMedia.updateSubjectTypes.mutate({ environment: ENV_PROD, externalMediaId, body }),
      ).toMatchObject({ id: externalMediaId });
    }
  });

  it('throws PlatformApiError carrying the ProblemDetails', async () => {
    let token: string | undefined;
    const rest = createRestClient({ baseUrl: s.tp.url, token: () => token });
    const anonymous = await rejection(rest.subscriptions.list());
    expect(anonymous).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    token = await s.tp.token(USERS.owner);
    const missing = await rejection(rest.subscriptions.get({ subscriptionId: 'f'.repeat(8) }));
    expect(missing).toMatchObject({ status: 404, code: 'NOT_FOUND', problem: { status: 404 } });
    expect(missing.traceId).toEqual(expect.any(String));
    const invalid = await rejection(
      rest.idpDomains.set({ subscriptionId: SUB_A, body: ['not a domain', 'fine.example'] }),
    );
    expect(invalid).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect(Object.keys(invalid.errors ?? {})).toEqual(['body[0]']);
    expect(invalid.message).toBe(invalid.problem.detail);
  });
});
