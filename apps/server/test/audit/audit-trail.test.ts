/**
 * The audit trail through the real interfaces (docs/audit.md): every write of the admin and environment APIs leaves
 * an entry naming actor, target, source address and trace id; refusals with 403 are `denied`; a failed write leaves
 * none; secrets show only as keyed fingerprints; each reader sees what its roles entitle it to; filters and pages.
 * Both backends (PostgreSQL when TEST_DATABASE_URL is set).
 */
import { createRestClient, PlatformApiError } from '@platform/client';
import type { AuditEntry, AuditPage } from '@platform/core';
import { exportDataFile } from '@platform/store';
import { testBackends } from '@platform/store/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { SUB_A, SUB_B, USERS } from '../support/fixture.ts';
import { seededPlatform } from '../support/seeded.ts';
import { caller, envPath, OPERATOR_ROLES, type Reply } from './support.ts';

const CLIENT = '203.0.113.7';
const OPERATOR = 'auth0|operator';
const SECRET = 'sk-audit-7d1e9a2b4c';
const OTHER_SECRET = 'sk-audit-other-3f5a';
const HEADER_SECRET = 'shared-audit-value-91ab';

const connectorBody = {
  name: 'Audited DAM',
  version: '1.0.0',
  type: 'media',
  script: 'export default class Connector {}',
  allowedDomains: ['api.acme.example'],
};

describe.each(await testBackends())('the audit trail on $name', (backend) => {
  // The test's requests come through a load balancer on loopback: the address it forwards is the source.
  const s = seededPlatform(backend, { TRUSTED_PROXIES: '127.0.0.1' });
  const { call, trail, texts } = caller(() => s.tp, CLIENT);
  const owner = { user: USERS.owner };
  const base = envPath('acme-prod');
  /** Each write's trace id by the action it should be recorded as (in order). */
  const done: { action: string; traceId: string; targetId?: string }[] = [];

  const write = async (action: string, method: string, path: string, body?: unknown, as = owner) => {
    const reply = await call<{ id?: string }>(method, path, { ...as, body });
    expect(reply.status, `${method} ${path}: ${reply.text}`).toBeLessThan(300);
    done.push({ action, traceId: reply.traceId });
    return reply;
  };

  let connectorId = '';
  let templateId = '';
  let tagId = '';
  let subjectTypeIds: string[] = [];

  beforeAll(async () => {
    connectorId = (await write('connector.publish', 'POST', `${base}/connectors`, connectorBody)).body.id!;
    const connector = `${base}/connectors/${connectorId}`;
    await write('connector.republish', 'PUT', connector, { ...connectorBody, version: '1.1.0' });
    await write('connector.update', 'PATCH', connector, { enabled: false });
    const key = { usage: 'server', key: 'X-Api-Key', value: SECRET };
    await write('connector.auth.set', 'PUT', `${connector}/auth/static`, key);
    await write('connector.auth.set', 'PUT', `${connector}/auth/static`, key);
    await write('connector.auth.set', 'PUT', `${connector}/auth/static`, { ...key, value: OTHER_SECRET });
    await write('connector.sharedHeaders.set', 'PUT', `${connector}/shared-headers`, {
      headers: { 'X-Tenant': HEADER_SECRET },
    });
    await write('connector.auth.delete', 'DELETE', `${connector}/auth?authUsage=server`);
    await write(
      'connector.authorizationCode.logout',
      'POST',
      `${connector}/auth/oauth-authorization-code/logout`,
    );
    tagId = (await write('tag.create', 'POST', `${base}/tags`, { name: 'Spring' })).body.id!;
    await write('tag.update', 'PUT', `${base}/tags/${tagId}`, { name: 'Summer' });
    templateId = (
      await write('template.create', 'POST', `${base}/templates`, { name: 'Flyer', content: { a: 1 } })
    ).body.id!;
    await write('template.update', 'PUT', `${base}/templates/${templateId}`, {
      name: 'Poster',
      content: { a: 2 },
    });
    await write('template.tags.set', 'PUT', `${base}/templates/${templateId}/tags`, { tagIds: [tagId] });
    const types = await call<{ subjectTypes: { id: string }[] }>(
      'GET',
      `${base}/vision?expand=allSubjectTypes`,
      owner,
    );
    await write('media.subjectTypes.set', 'PUT', `${base}/external-media/ext-1/vision`, {
      subjectTypes: [{ id: types.body.subjectTypes[0]!.id, assigned: true }],
    });
    await write('media.subjectTypes.set', 'PUT', `${base}/external-media/ext-1/vision`, {
      subjectTypes: [
        { id: types.body.subjectTypes[0]!.id, assigned: true },
        { id: types.body.subjectTypes[1]!.id, assigned: false },
      ],
    });
    subjectTypeIds = [types.body.subjectTypes[0]!.id, types.body.subjectTypes[1]!.id];
    await write('subscription.idpDomains.set', 'PUT', `/api/v1/subscriptions/${SUB_A}/external-idp-domains`, [
      'acme.example',
      'login.acme.example',
    ]);
    await write('template.delete', 'DELETE', `${base}/templates/${templateId}`);
    await write('tag.delete', 'DELETE', `${base}/tags/${tagId}`);
    await write('connector.delete', 'DELETE', connector);
    await write('data.import', 'POST', '/api/v1/imports', { users: [] }, {
      user: OPERATOR,
      roles: OPERATOR_ROLES,
    } as never);
  });

  it('records every write with its actor, target, source address and trace id, newest first', async () => {
    const entries = await trail(OPERATOR, '', OPERATOR_ROLES);
    const ours = entries.filter((entry) => done.some((d) => d.traceId === entry.traceId));
    expect(ours.map((entry) => entry.action)).toEqual(done.map((d) => d.action).reverse());
    for (const entry of ours) {
      expect(entry.outcome).toBe('success');
      expect(entry.sourceAddress).toBe(CLIENT);
      expect(entry.actor.issuer).toBe(s.tp.issuer.url);
      expect(entry.actor.subject).toBe(entry.action === 'data.import' ? OPERATOR : USERS.owner);
      expect(Date.parse(entry.at)).toBeGreaterThan(Date.now() - 10 * 60_000);
    }
    const environmentEntries = ours.filter(
      (entry) => !['subscription', 'dataFile'].includes(entry.target.type),
    );
    for (const entry of environmentEntries) {
      expect(entry.target).toMatchObject({ environment: 'acme-prod', subscriptionId: SUB_A });
    }
    const byAction = (action: string) => ours.filter((entry) => entry.action === action);
    expect(byAction('connector.publish')[0]?.target).toMatchObject({ type: 'connector', id: connectorId });
    expect(byAction('connector.republish')[0]?.changes.version).toEqual({ from: '1.0.0', to: '1.1.0' });
    expect(byAction('connector.update')[0]?.changes).toEqual({ enabled: { from: true, to: false } });
    expect(byAction('tag.update')[0]?.changes).toEqual({ name: { from: 'Spring', to: 'Summer' } });
    expect(byAction('template.tags.set')[0]?.changes).toEqual({ tagIds: { from: [], to: [tagId] } });
    // An assignment set again shows what it was; one never set shows only what it is now.
    const [first, second] = subjectTypeIds;
    expect(byAction('media.subjectTypes.set').map((entry) => entry.changes)).toEqual([
      { [`subjectTypes.${first}`]: { from: true, to: true }, [`subjectTypes.${second}`]: { to: false } },
      { [`subjectTypes.${first}`]: { to: true } },
    ]);
    // The deleted document's fingerprint is the one its last update set.
    const updated = byAction('template.update')[0]?.changes.content?.to;
    expect(updated).toMatch(/^sha256:[0-9a-f]{8}$/);
    expect(byAction('template.delete')[0]?.changes).toEqual({
      name: { from: 'Poster' },
      content: { from: updated },
    });
    expect(byAction('subscription.idpDomains.set')[0]?.target).toEqual({
      type: 'subscription',
      id: SUB_A,
      subscriptionId: SUB_A,
    });
    expect(byAction('data.import')[0]?.target.type).toBe('dataFile');
  });

  it('shows secrets only as keyed fingerprints: equal for the same value, different for another', async () => {
    const entries = await trail(USERS.owner, `action=connector.auth.set&subscriptionId=${SUB_A}`);
    const sets = entries.filter((entry) => done.some((d) => d.traceId === entry.traceId)).reverse();
    expect(sets).toHaveLength(3);
    const [first, again, changed] = sets.map((entry) => entry.changes.value);
    expect(first).toEqual({ to: expect.stringMatching(/^sha256:[0-9a-f]{8}$/) });
    expect(again).toEqual({ from: first?.to, to: first?.to });
    expect(changed?.from).toBe(first?.to);
    expect(changed?.to).toMatch(/^sha256:[0-9a-f]{8}$/);
    expect(changed?.to).not.toBe(first?.to);
    expect(sets[0]?.changes.key).toEqual({ to: 'X-Api-Key' });
    const headers = await trail(USERS.owner, 'action=connector.sharedHeaders.set');
    expect(headers[0]?.changes['headers.X-Tenant']?.to).toMatch(/^sha256:[0-9a-f]{8}$/);
    const removed = (await trail(USERS.owner, 'action=connector.auth.delete'))[0];
    expect(removed?.changes.value).toEqual({ from: changed?.to });
    for (const text of [...texts, ...s.tp.logs]) {
      for (const secret of [SECRET, OTHER_SECRET, HEADER_SECRET]) expect(text).not.toContain(secret);
    }
  });

  it('records writes refused with 403 as denied, and a failed write not at all', async () => {
    const refused = await call('POST', `${base}/tags`, { user: USERS.contentUser, body: { name: 'Nope' } });
    expect(refused.status).toBe(403);
    const readOnly = await call('POST', `${base}/tags`, {
      user: USERS.owner,
      roles: ['platform:read'],
      body: { name: 'Nope' },
    });
    expect(readOnly.status).toBe(403);
    await call('POST', `${base}/tags`, { ...owner, body: { name: 'Taken' } });
    const template = await call<{ id: string }>('POST', `${base}/templates`, {
      ...owner,
      body: { name: 'Kept' },
    });
    const before = (await trail(OPERATOR, '', OPERATOR_ROLES)).length;
    const conflict = await call('POST', `${base}/tags`, { ...owner, body: { name: 'taken' } });
    expect(conflict.status).toBe(409);
    const unknownTag = await call('PUT', `${base}/templates/${template.body.id}/tags`, {
      ...owner,
      body: { tagIds: ['00000000-0000-4000-8000-00000000abcd'] },
    });
    expect(unknownTag.status).toBe(400);
    const unknownType = await call('PUT', `${base}/external-media/ext-2/vision`, {
      ...owner,
      body: { subjectTypes: [{ id: '00000000-0000-4000-8000-00000000abcd', assigned: true }] },
    });
    expect(unknownType.status).toBe(400);
    const badDomains = await call('PUT', `/api/v1/subscriptions/${SUB_A}/external-idp-domains`, {
      ...owner,
      body: ['*.wildcard.example'],
    });
    expect(badDomains.status).toBe(400);
    const missing = await call('DELETE', `${base}/tags/00000000-0000-4000-8000-00000000abcd`, owner);
    expect(missing.status).toBe(404);
    const entries = await trail(OPERATOR, '', OPERATOR_ROLES);
    expect(entries.length).toBe(before);
    const denied = entries.filter((entry) => entry.outcome === 'denied');
    const byTrace = (traceId: string) => denied.find((entry) => entry.traceId === traceId);
    expect(byTrace(refused.traceId)).toMatchObject({
      action: 'tag.create',
      actor: { subject: USERS.contentUser },
      target: { type: 'tag', environment: 'acme-prod', subscriptionId: SUB_A },
      sourceAddress: CLIENT,
      changes: {},
    });
    expect(byTrace(readOnly.traceId)).toMatchObject({
      action: 'tag.create',
      actor: { subject: USERS.owner },
    });
    // A data file has no id of its own: a refused import is named by its request's trace, as an accepted one is.
    const notOperator = await call('POST', '/api/v1/imports', { ...owner, body: {} });
    expect(notOperator.status).toBe(403);
    expect((await trail(OPERATOR, 'action=data.import', OPERATOR_ROLES))[0]).toMatchObject({
      outcome: 'denied',
      traceId: notOperator.traceId,
      target: { type: 'dataFile', id: notOperator.traceId },
    });
  });

  it('shows each reader what its roles entitle it to', async () => {
    await call('POST', `${envPath('globex-prod')}/tags`, {
      user: USERS.outsider,
      body: { name: 'Globex tag' },
    });
    const operator = await trail(OPERATOR, '', OPERATOR_ROLES);
    const subscriptions = new Set(operator.map((entry) => entry.target.subscriptionId));
    expect(subscriptions).toContain(SUB_A);
    expect(subscriptions).toContain(SUB_B);
    for (const user of [USERS.owner, USERS.admin]) {
      const seen = await trail(user);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.every((entry) => entry.target.subscriptionId === SUB_A)).toBe(true);
    }
    const outsider = await trail(USERS.outsider);
    expect(outsider.map((entry) => entry.target.subscriptionId)).toEqual([SUB_B]);
    // Seen without SubscriptionOwner or SubscriptionAdmin → 403; not seen → 404; a member reads nothing by default.
    expect((await call('GET', `/api/v1/audit?subscriptionId=${SUB_A}`, { user: USERS.member })).status).toBe(
      403,
    );
    expect(
      (await call('GET', `/api/v1/audit?subscriptionId=${SUB_A}`, { user: USERS.envAdmin })).status,
    ).toBe(403);
    expect(
      (await call('GET', `/api/v1/audit?subscriptionId=${SUB_A}`, { user: USERS.outsider })).status,
    ).toBe(404);
    expect(await trail(USERS.member)).toEqual([]);
  });

  it('filters by actor, action, environment and time, and pages without gaps or repeats', async () => {
    const all = await trail(OPERATOR, '', OPERATOR_ROLES);
    const paged: AuditEntry[] = [];
    let path: string | null = '/api/v1/audit?limit=3';
    while (path) {
      const page: Reply<AuditPage> = await call<AuditPage>('GET', path, {
        user: OPERATOR,
        roles: OPERATOR_ROLES,
      });
      expect(page.body.pageSize).toBe(3);
      expect(page.body.data.length).toBeLessThanOrEqual(3);
      paged.push(...page.body.data);
      const next = page.body.links.nextPage;
      path = next === null ? null : next.slice(new URL(next).origin.length);
    }
    expect(paged.map((entry) => entry.id)).toEqual(all.map((entry) => entry.id));
    const times = all.map((entry) => Date.parse(entry.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const byActor = await trail(OPERATOR, `actor=${encodeURIComponent(USERS.contentUser)}`, OPERATOR_ROLES);
    expect(byActor.length).toBeGreaterThan(0);
    expect(byActor.every((entry) => entry.actor.subject === USERS.contentUser)).toBe(true);
    const tags = await trail(USERS.owner, 'action=tag.create&environment=ACME-PROD');
    expect(tags.length).toBeGreaterThan(0);
    expect(tags.every((e) => e.action === 'tag.create' && e.target.environment === 'acme-prod')).toBe(true);
    const middle = all[Math.floor(all.length / 2)]!;
    const window = await trail(OPERATOR, `from=${middle.at}&to=${middle.at}`, OPERATOR_ROLES);
    expect(window.map((entry) => entry.id)).toContain(middle.id);
    expect(window.every((entry) => entry.at === middle.at)).toBe(true);
    expect(await trail(OPERATOR, 'to=2000-01-01T00:00:00Z', OPERATOR_ROLES)).toEqual([]);
  });

  it('names every bad parameter in a 400', async () => {
    const bad = await call<{ errors: Record<string, string[]> }>(
      'GET',
      '/api/v1/audit?limit=500&from=yesterday&to=soon',
      owner,
    );
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['from', 'limit', 'to']);
    const badToken = await call<{ errors: Record<string, string[]> }>(
      'GET',
      '/api/v1/audit?limit=0&from=bad&nextPageToken=zz',
      owner,
    );
    expect(Object.keys(badToken.body.errors).sort()).toEqual(['from', 'limit', 'nextPageToken']);
    for (const query of [
      'nextPageToken=garbage',
      'limit=0',
      'from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z',
    ]) {
      const reply = await call<{ errors: Record<string, string[]> }>('GET', `/api/v1/audit?${query}`, owner);
      expect(reply.status, query).toBe(400);
      expect(Object.keys(reply.body.errors), query).toEqual([query.split('=')[0]]);
    }
    // A subscriptionId that is not a guid names no subscription: 404, as any the caller cannot see.
    expect((await call('GET', '/api/v1/audit?subscriptionId=xyz', owner)).status).toBe(404);
  });

  it('writes the trail into an export, and an import adds it once', async () => {
    const file = await exportDataFile(s.tp.database.db);
    expect(file.auditEntries.length).toBeGreaterThan(done.length);
    const before = await trail(OPERATOR, '', OPERATOR_ROLES);
    const first = await call<{ auditEntries: number }>('POST', '/api/v1/imports', {
      user: OPERATOR,
      roles: OPERATOR_ROLES,
      body: file,
    });
    expect(first.status, first.text).toBe(200);
    expect(first.body.auditEntries).toBe(0);
    const after = await trail(OPERATOR, '', OPERATOR_ROLES);
    // Only the import's own entry is new: the file's entries were all held already.
    expect(after.length).toBe(before.length + 1);
    expect(after[0]).toMatchObject({ action: 'data.import', traceId: first.traceId });
    expect(after.slice(1)).toEqual(before);
  });

  it('answers through @platform/client, REST and tRPC alike', async () => {
    const rest = createRestClient({ baseUrl: s.tp.url, token: await s.tp.token(USERS.owner) });
    const page = await rest.audit.list({ subscriptionId: SUB_A, action: 'tag.update', limit: '5' });
    expect(page.data.map((entry) => entry.action)).toEqual(['tag.update']);
    const refused = await rest.audit.list({ subscriptionId: SUB_B }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PlatformApiError);
    expect((refused as PlatformApiError).status).toBe(404);
  });

  it('answers through tRPC as audit.list', async () => {
    const token = await s.tp.token(USERS.owner);
    const input = encodeURIComponent(JSON.stringify({ action: 'tag.update', limit: '5' }));
    const response = await s.tp.call(`/trpc/audit.list?input=${input}`, { token });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { result: { data: { data: AuditEntry[] } } };
    expect(body.result.data.data.map((entry) => entry.action)).toEqual(['tag.update']);
  });
});
