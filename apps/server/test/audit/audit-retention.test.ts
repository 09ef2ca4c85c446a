/**
 * AUDIT_RETENTION_DAYS (docs/audit.md): a server that starts sweeps the entries past the retention period and keeps
 * the others. Both backends.
 */
import type { AuditEntry, AuditPage } from '@platform/core';
import { importDataFile } from '@platform/store';
import { testBackends } from '@platform/store/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { fixture, SUB_A, USERS } from '../support/fixture.ts';
import { startTestPlatform, type TestPlatform } from '../support/platform.ts';

const entry = (id: string, daysAgo: number): AuditEntry => ({
  id,
  at: new Date(Date.now() - daysAgo * 86_400_000).toISOString(),
  actor: { issuer: 'https://issuer.example', subject: USERS.owner },
  action: 'tag.create',
  outcome: 'success',
  target: { type: 'tag', id: `tag-${daysAgo}`, environment: 'acme-prod', subscriptionId: SUB_A },
  sourceAddress: '192.0.2.10',
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  changes: { name: { to: `${daysAgo} days ago` } },
});

describe.each(await testBackends())('audit retention on $name', (backend) => {
  let tp: TestPlatform | undefined;
  afterAll(async () => {
    await tp?.close();
  });

  it('removes at start the entries older than AUDIT_RETENTION_DAYS, and only those', async () => {
    const database = await backend.fresh();
    await importDataFile(database, {
      ...fixture(new Date()),
      auditEntries: [
        entry('00000000-0000-4000-8000-0000000000a1', 45),
        entry('00000000-0000-4000-8000-0000000000a2', 10),
      ],
    });
    tp = await startTestPlatform(backend, { AUDIT_RETENTION_DAYS: '30' }, database);
    const token = await tp.token(USERS.owner);
    // The sweep runs as the server starts, beside its first requests.
    await expect
      .poll(async () => {
        const page = (await (
          await tp!.call(`/api/v1/audit?subscriptionId=${SUB_A}`, { token })
        ).json()) as AuditPage;
        return page.data.map((e) => e.id);
      })
      .toEqual(['00000000-0000-4000-8000-0000000000a2']);
  });
});
