/**
 * Replicas on one PostgreSQL (docs/audit.md, "Append-only, retention, replicas"): an entry written through one is
 * read through the other at once. PostgreSQL only (TEST_DATABASE_URL); the embedded database has one process.
 */
import type { AuditPage } from '@platform/core';
import { importDataFile } from '@platform/store';
import { testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, SUB_A, USERS } from '../support/fixture.ts';
import { startTestPlatform, type TestPlatform } from '../support/platform.ts';

const postgres = (await testBackends()).find((backend) => backend.name === 'postgres');

describe.runIf(postgres)('the audit trail across replicas', () => {
  let first: TestPlatform;
  let second: TestPlatform;
  beforeAll(async () => {
    first = await startTestPlatform(postgres!);
    await importDataFile(first.database, fixture(new Date()));
    second = await startTestPlatform(postgres!, {}, first.database);
  });
  afterAll(async () => {
    await second?.platform.close();
    await second?.issuer.close();
    await first?.close();
  });

  it('reads on one replica what was written through the other, at once', async () => {
    const token = await first.token(USERS.owner);
    const created = await first.call('/grafx/api/v1/environment/acme-prod/tags', {
      method: 'POST',
      token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'From the first replica' }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const page = (await (
      await second.call(`/api/v1/audit?subscriptionId=${SUB_A}&action=tag.create`, {
        token: await second.token(USERS.owner),
      })
    ).json()) as AuditPage;
    expect(page.data[0]).toMatchObject({ action: 'tag.create', target: { id, environment: 'acme-prod' } });
  });
});
