import { EnvironmentRenderModel, SubscriptionRendersModel } from '@platform/core';
import { testBackends } from '@platform/store/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ENV_DEV, ENV_PROD, ENV_SANDBOX, SUB_A, USERS } from '../support/fixture.ts';
import { json, seededPlatform } from '../support/seeded.ts';

const ymd = (d: Date) => d.toISOString().slice(0, 10);
const daysAgo = (now: Date, n: number) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - n));

describe.each(await testBackends())('render usage on $name', (backend) => {
  const s = seededPlatform(backend, { RATE_LIMIT_PER_SECOND: '0' });
  const get = async (path: string, roles = ['platform:read']) =>
    s.tp.call(path, { token: await s.tp.token(USERS.owner, roles) });

  it('groups the last 30 days by day, zero-filled, oldest first', async () => {
    const response = await get(`/api/v1/environments/${ENV_PROD}/renders?groupBy=month`);
    expect(response.status).toBe(200);
    const groups = z.array(EnvironmentRenderModel).parse(await response.json());
    expect(groups).toHaveLength(30);
    expect(groups[0]?.date).toBe(`${ymd(daysAgo(s.now, 29))}T00:00:00Z`);
    expect(groups[29]?.date).toBe(`${ymd(s.now)}T00:00:00Z`);
    expect(groups[29]).toMatchObject({
      totalRenders: 10,
      totalWatermarkedRenders: 0,
      renderDetail: [{ name: 'Pdf', renders: 10 }],
    });
    expect(groups[28]).toMatchObject({
      totalRenders: 5,
      totalWatermarkedRenders: 2,
      renderDetail: [{ name: 'Image', renders: 5 }],
    });
    expect(groups.slice(0, 28).every((g) => g.totalRenders === 0 && g.renderDetail.length === 0)).toBe(true);
  });

  it('groups the last 12 months by month', async () => {
    const groups = z
      .array(EnvironmentRenderModel)
      .parse(await json(await get(`/api/v1/environments/${ENV_DEV}/renders?groupBy=year`)));
    expect(groups).toHaveLength(12);
    const first = new Date(Date.UTC(s.now.getUTCFullYear(), s.now.getUTCMonth() - 11, 1));
    expect(groups[0]?.date).toBe(`${ymd(first)}T00:00:00Z`);
    expect(groups.reduce((a, g) => a + g.totalRenders, 0)).toBe(4);
  });

  it('uses an inclusive custom range and counts nothing outside it', async () => {
    const start = ymd(daysAgo(s.now, 1));
    const end = ymd(s.now);
    const groups = z
      .array(EnvironmentRenderModel)
      .parse(
        await json(
          await get(
            `/api/v1/environments/${ENV_PROD}/renders?groupBy=year&startDate=${start}&endDate=${end}`,
          ),
        ),
      );
    expect(groups.reduce((a, g) => a + g.totalRenders, 0)).toBe(15);
    expect(groups.reduce((a, g) => a + g.totalWatermarkedRenders, 0)).toBe(2);
    const days = z
      .array(EnvironmentRenderModel)
      .parse(
        await json(
          await get(
            `/api/v1/environments/${ENV_PROD}/renders?groupBy=month&startDate=${start}&endDate=${start}`,
          ),
        ),
      );
    expect(days.map((d) => d.totalRenders)).toEqual([5]);
  });

  it.each([
    ['groupBy missing', ''],
    ['groupBy unknown', 'groupBy=week'],
    ['groupBy in the wrong case', 'groupBy=Year'],
    ['startDate alone', 'groupBy=month&startDate=2026-01-01'],
    ['endDate alone', 'groupBy=month&endDate=2026-01-01'],
    ['an impossible date', 'groupBy=month&startDate=2026-02-30&endDate=2026-03-01'],
    ['a wrongly formatted date', 'groupBy=month&startDate=01/02/2026&endDate=2026-03-01'],
    ['start after end', 'groupBy=month&startDate=2026-03-02&endDate=2026-03-01'],
    ['more than 366 days', 'groupBy=month&startDate=2024-01-01&endDate=2026-01-01'],
    ['more than 120 months', 'groupBy=year&startDate=2000-01-01&endDate=2026-01-01'],
    ['a repeated groupBy', 'groupBy=year&groupBy=month'],
  ])('answers 400 for %s', async (_name, query) => {
    for (const path of [
      `/api/v1/environments/${ENV_PROD}/renders`,
      `/api/v1/subscriptions/${SUB_A}/renders`,
    ]) {
      const response = await get(`${path}?${query}`);
      expect(response.status, `${path}?${query}`).toBe(400);
      const body = await json<{ detail: string; errors: Record<string, string[]> }>(response);
      expect(Object.keys(body.errors).length).toBeGreaterThan(0);
    }
  });

  it('answers 400 for a malformed id and 404 for an unknown one', async () => {
    expect((await get('/api/v1/environments/zzz/renders?groupBy=year')).status).toBe(400);
    expect((await get('/api/v1/subscriptions/zzz/renders?groupBy=year')).status).toBe(400);
    expect(
      (await get('/api/v1/environments/0e000000-0000-4000-8000-0000000000ff/renders?groupBy=year')).status,
    ).toBe(404);
  });

  it('judges the query after visibility: 404 for what the caller cannot see, else a 400 naming the allowed values', async () => {
    const outsider = await s.tp.token(USERS.outsider, ['platform:read']);
    for (const query of ['', '?groupBy=week', '?groupBy=year&top=0', '?groupBy=Year']) {
      const hidden = await s.tp.call(`/api/v1/subscriptions/${SUB_A}/renders${query}`, { token: outsider });
      expect(hidden.status, query).toBe(404);
    }
    const missing = await json<{ errors: Record<string, string[]> }>(
      await get(`/api/v1/subscriptions/${SUB_A}/renders`),
    );
    expect(missing.errors).toEqual({ groupBy: ['groupBy is required: year or month.'] });
    const wrong = await get(`/api/v1/subscriptions/${SUB_A}/renders?groupBy=Year&top=1.5`);
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { errors: unknown }).errors).toEqual({
      groupBy: ['groupBy must be year or month.'],
      top: ['top must be an integer of at least 1.'],
    });
    const repeated = await get(`/api/v1/subscriptions/${SUB_A}/renders?groupBy=year&groupBy=month`);
    expect(repeated.status).toBe(400);
  });

  it('lists every environment in every group, by type then renders, and merges the rest into Others with top', async () => {
    const groups = z
      .array(SubscriptionRendersModel)
      .parse(await json(await get(`/api/v1/subscriptions/${SUB_A}/renders?groupBy=month`)));
    expect(groups).toHaveLength(30);
    for (const group of groups) {
      expect(group.environments).toHaveLength(4);
      expect(group.totalRenders).toBe(group.environments.reduce((a, e) => a + e.renders, 0));
    }
    const today = groups[29];
    expect(today?.environments.map((e) => e.name)).toEqual([
      'Acme Production',
      'Acme Production US',
      'Acme Sandbox',
      'Acme Dev',
    ]);

    const top = z
      .array(SubscriptionRendersModel)
      .parse(await json(await get(`/api/v1/subscriptions/${SUB_A}/renders?groupBy=month&top=1`)));
    for (const group of top) {
      expect(group.environments.map((e) => e.name)).toEqual(['Acme Production', 'Others']);
    }
    const total = (gs: typeof top) => gs.reduce((a, g) => a + g.totalRenders, 0);
    expect(total(top)).toBe(total(groups));
    expect(top[27]?.environments[1]?.renders).toBe(7);
    const all = z
      .array(SubscriptionRendersModel)
      .parse(await json(await get(`/api/v1/subscriptions/${SUB_A}/renders?groupBy=month&top=4`)));
    expect(all[0]?.environments.some((e) => e.name === 'Others')).toBe(false);
    for (const bad of ['0', '-1', '1.5', 'x']) {
      expect((await get(`/api/v1/subscriptions/${SUB_A}/renders?groupBy=month&top=${bad}`)).status).toBe(400);
    }
  });

  it('ingests render events with the ingest role and counts them', async () => {
    const events = [
      {
        environmentGuid: ENV_SANDBOX,
        kind: 'Mp4',
        watermarked: false,
        at: new Date().toISOString(),
        count: 4,
      },
      { environmentGuid: ENV_SANDBOX, kind: 'Mp4', at: new Date().toISOString() },
    ];
    const post = async (body: unknown, roles: string[]) =>
      s.tp.call('/api/v1/render-events', {
        method: 'POST',
        token: await s.tp.token('ingester', roles),
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post(events, ['platform:read', 'platform:write'])).status).toBe(403);
    const accepted = await post(events, ['platform:ingest']);
    expect(accepted.status).toBe(202);
    expect(await accepted.json()).toEqual({ accepted: 2 });
    const groups = z
      .array(EnvironmentRenderModel)
      .parse(await json(await get(`/api/v1/environments/${ENV_SANDBOX}/renders?groupBy=month`)));
    expect(groups[29]?.renderDetail).toContainEqual({ name: 'Mp4', renders: 5 });
    const bad = await post([{ environmentGuid: 'nope', kind: '', at: 'yesterday' }], ['platform:ingest']);
    expect(bad.status).toBe(400);
    const unknown = await post(
      [
        {
          environmentGuid: '0e000000-0000-4000-8000-0000000000ff',
          kind: 'Pdf',
          at: new Date().toISOString(),
        },
      ],
      ['platform:ingest'],
    );
    expect(unknown.status).toBe(400);
    // The detail names the element as `errors` does.
    expect(await unknown.json()).toMatchObject({
      detail: expect.stringMatching(/^body\[0\]\.environmentGuid: no environment has this guid/),
      errors: { 'body[0].environmentGuid': ['no environment has this guid'] },
    });
    // A misspelt key names the key meant, as an import of the same event does.
    const misspelt = await post(
      [{ environmentGuid: ENV_SANDBOX, kind: 'Pdf', at: new Date().toISOString(), cuont: 2 }],
      ['platform:ingest'],
    );
    expect(misspelt.status).toBe(400);
    expect((await misspelt.json()).errors).toEqual({
      'body[0].cuont': ['unknown field; did you mean count?'],
    });
    // So does the parser, for a number it cannot keep.
    const inexact = await s.tp.call('/api/v1/render-events', {
      method: 'POST',
      token: await s.tp.token('ingester', ['platform:ingest']),
      headers: { 'content-type': 'application/json' },
      body: `[{"environmentGuid":"${ENV_SANDBOX}","kind":"Pdf","at":"${new Date().toISOString()}","count":1e400}]`,
    });
    expect(inexact.status).toBe(400);
    expect(Object.keys((await inexact.json()).errors)).toEqual(['body[0].count']);
  });
});

describe.each((await testBackends()).slice(0, 1))('render event batch limits on $name', (backend) => {
  const s = seededPlatform(backend);
  const post = async (count: number) =>
    s.tp.call('/api/v1/render-events', {
      method: 'POST',
      token: await s.tp.token('ingester', ['platform:ingest']),
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(
        Array.from({ length: count }, (_, i) => ({
          environmentGuid: ENV_DEV,
          kind: 'Pdf',
          watermarked: i % 2 === 0,
          at: new Date(Date.UTC(2026, 0, 1 + (i % 28), 10)).toISOString(),
          count: 1,
        })),
      ),
    });

  it('accepts the documented maximum of 10,000 events although it is over 1 MiB of JSON', async () => {
    const response = await post(10_000);
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ accepted: 10_000 });
  });

  it('answers 400 naming the limit for 10,001 events', async () => {
    const response = await post(10_001);
    expect(response.status).toBe(400);
  });
});

// A server of its own: the statements are prepared per process, and the first query of a shape decides its statement.
describe.each(await testBackends())('subscription render statements on $name', (backend) => {
  const s = seededPlatform(backend, { RATE_LIMIT_PER_SECOND: '0' });

  it('answers a day grouping after a month grouping of a range inside one month, and both stay right', async () => {
    const token = await s.tp.token(USERS.owner, ['platform:read']);
    const renders = async (query: string) => {
      const response = await s.tp.call(`/api/v1/subscriptions/${SUB_A}/renders?${query}`, { token });
      expect(response.status, query).toBe(200);
      return z.array(SubscriptionRendersModel).parse(await response.json());
    };
    const today = ymd(s.now);
    const monthStart = `${today.slice(0, 8)}01`;
    const months = await renders(`groupBy=year&startDate=${monthStart}&endDate=${today}`);
    expect(months).toHaveLength(1);
    expect(months[0]?.date).toBe(`${monthStart}T00:00:00Z`);
    const days = await renders('groupBy=month');
    expect(days).toHaveLength(30);
    expect(days[29]?.date).toBe(`${today}T00:00:00Z`);
    const inMonth = days.filter((g) => g.date >= monthStart);
    expect(months[0]?.totalRenders).toBe(inMonth.reduce((a, g) => a + g.totalRenders, 0));
    expect((await renders(`groupBy=year&startDate=${monthStart}&endDate=${today}`))[0]).toEqual(months[0]);
  });
});
