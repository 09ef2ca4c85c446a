import { ForbiddenError, NotFoundError, ValidationError } from '@platform/core';
import { type TestDatabase, testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextFor, operator, SUB_ACME, SUB_GLOBEX, seededDatabase } from '../access.fixture.ts';
import { getIdpDomains } from './get.ts';
import { setIdpDomains } from './set.ts';

const backends = await testBackends();

describe.each(backends)('identity-provider domain services on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await seededDatabase(backend);
  }, 120_000);
  afterAll(() => database?.close());

  const as = (userId: string) => contextFor(database, userId);

  it('reads the stored list for anyone who may see the subscription', async () => {
    expect(await getIdpDomains(as('auth0|carol'), { subscriptionId: SUB_ACME })).toEqual(['acme.example']);
    await expect(getIdpDomains(as('auth0|erin'), { subscriptionId: SUB_ACME })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(getIdpDomains(as('auth0|alice'), { subscriptionId: 'bad' })).rejects.toBeInstanceOf(
      ValidationError,
    );
  });

  it('replaces the whole list, normalized, duplicates collapsed, order kept', async () => {
    const ctx = as('auth0|alice');
    await setIdpDomains(ctx, {
      subscriptionId: SUB_ACME,
      body: ['B.example', 'bücher.example', 'b.example', 'a.example'],
    });
    expect(await getIdpDomains(ctx, { subscriptionId: SUB_ACME })).toEqual([
      'b.example',
      'xn--bcher-kva.example',
      'a.example',
    ]);
    await setIdpDomains(ctx, { subscriptionId: SUB_ACME, body: ['a.example'] });
    await setIdpDomains(ctx, { subscriptionId: SUB_ACME, body: ['a.example'] });
    expect(await getIdpDomains(ctx, { subscriptionId: SUB_ACME })).toEqual(['a.example']);
    await setIdpDomains(operator(database), { subscriptionId: SUB_GLOBEX, body: ['globex.example'] });
    expect(await getIdpDomains(as('auth0|dave'), { subscriptionId: SUB_GLOBEX })).toEqual(['globex.example']);
    await setIdpDomains(ctx, { subscriptionId: SUB_ACME, body: [] });
    expect(await getIdpDomains(ctx, { subscriptionId: SUB_ACME })).toEqual([]);
  });

  it('rejects bad entries naming each, and changes nothing', async () => {
    const ctx = as('auth0|alice');
    await setIdpDomains(ctx, { subscriptionId: SUB_ACME, body: ['keep.example'] });
    const call = setIdpDomains(ctx, {
      subscriptionId: SUB_ACME,
      body: ['ok.example', '*.example.com', 'https://x.example', '10.0.0.1', '', 42, 'x.example:443'],
    });
    await expect(call).rejects.toBeInstanceOf(ValidationError);
    await expect(call).rejects.toMatchObject({
      errors: {
        'body[1]': expect.any(Array),
        'body[2]': expect.any(Array),
        'body[3]': expect.any(Array),
        'body[4]': expect.any(Array),
        'body[5]': expect.any(Array),
        'body[6]': expect.any(Array),
      },
    });
    await expect(
      setIdpDomains(ctx, {
        subscriptionId: SUB_ACME,
        body: Array.from({ length: 101 }, (_, i) => `d${i}.example`),
      }),
    ).rejects.toBeInstanceOf(ValidationError);
    await expect(setIdpDomains(ctx, { subscriptionId: SUB_ACME, body: 'a.example' })).rejects.toBeInstanceOf(
      ValidationError,
    );
    expect(await getIdpDomains(ctx, { subscriptionId: SUB_ACME })).toEqual(['keep.example']);
  });

  it('needs Owner or Admin (403), visibility (404), and a well-formed id (400)', async () => {
    const body = ['x.example'];
    await expect(setIdpDomains(as('auth0|bob'), { subscriptionId: SUB_ACME, body })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    await expect(setIdpDomains(as('auth0|carol'), { subscriptionId: SUB_ACME, body })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    await expect(setIdpDomains(as('auth0|dave'), { subscriptionId: SUB_ACME, body })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(setIdpDomains(as('auth0|alice'), { subscriptionId: 'nope', body })).rejects.toMatchObject({
      status: 400,
    });
    expect(await getIdpDomains(as('auth0|alice'), { subscriptionId: SUB_ACME })).toEqual(['keep.example']);
  });
});
