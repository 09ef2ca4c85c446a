/**
 * U+0000 and a lone surrogate in every path parameter, query parameter and body string of every operation the
 * served /openapi.json documents, one at a time: each must be a 400 whose `errors` names that very field
 * (docs/errors.md), never a 500. Bodies come from each operation's own schema; every string in the sample and
 * every string property the schema names at the top is tried, and an object body also gets a bad key.
 */
import { testBackends } from '@platform/store/testing';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { type KnownIds, seedWorld } from '../support/fuzz-world.ts';
import { contractViolations, sendRaw } from '../support/raw-http.ts';
import { seededPlatform } from '../support/seeded.ts';
import { type Components, fromSchema, type Schema } from './arbitraries.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_122);
const backends = await testBackends();

/** The bad texts, as they are written in JSON and in a percent-encoded URL. */
const BAD = [
  { json: 'a\u0000b', url: 'a%00b' },
  { json: '\ud800', url: '%ED%A0%80' },
] as const;

type Parameter = { name: string; in: string; schema: Schema };
type Document = {
  paths: Record<
    string,
    Record<
      string,
      { parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: Schema }> } }
    >
  >;
  components: { schemas: Components };
};

const resolve = (schema: Schema, components: Components): Schema =>
  schema.$ref ? resolve(components[schema.$ref.split('/').pop() ?? ''] ?? {}, components) : schema;

/** The name docs/errors.md gives a body field: its own path, `body[i]` for elements of an array body. */
const fieldName = (path: (string | number)[]) =>
  path.reduce<string>(
    (out, key) => (typeof key === 'number' ? `${out || 'body'}[${key}]` : out ? `${out}.${key}` : key),
    '',
  );

/** Paths of the string leaves of a JSON value. */
const stringLeaves = (value: unknown, path: (string | number)[] = []): (string | number)[][] => {
  if (typeof value === 'string') return [path];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringLeaves(v, [...path, i]));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([k, v]) => stringLeaves(v, [...path, k]));
  }
  return [];
};

const withLeaf = (value: unknown, path: (string | number)[], leaf: string): unknown => {
  if (path.length === 0) return leaf;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  if (Array.isArray(value)) return value.map((v, i) => (i === head ? withLeaf(v, rest, leaf) : v));
  return { ...(value as object), [head]: withLeaf((value as Record<string, unknown>)[head], rest, leaf) };
};

describe.each(backends)('fuzz: U+0000 and lone surrogates in every field on $name', (backend) => {
  const s = seededPlatform(backend);
  let document: Document;
  let known: KnownIds;
  let token: string;

  beforeAll(async () => {
    document = (await (await s.tp.call('/openapi.json')).json()) as Document;
    known = await seedWorld(s.tp);
    token = await s.tp.token('ops|operator', [
      'platform:read',
      'platform:write',
      'platform:admin',
      'platform:ingest',
    ]);
  });

  it('answers each with 400 naming the field, on every documented operation', async () => {
    const misses: string[] = [];
    let sent = 0;
    const expectNamed = async (method: string, path: string, name: string, body?: string): Promise<void> => {
      const reply = await sendRaw(s.tp.url, {
        method,
        path,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body }),
      });
      sent++;
      const errors = (() => {
        try {
          return (JSON.parse(reply?.body.toString('utf8') ?? '') as { errors?: object }).errors ?? {};
        } catch {
          return {};
        }
      })();
      const violations = reply ? contractViolations(reply) : ['not sent'];
      if (reply?.status !== 400 || !Object.hasOwn(errors, name) || violations.length > 0) {
        misses.push(
          `${method} ${path.slice(0, 120)} ${name}: ${reply?.status} ${violations} ${JSON.stringify(errors).slice(0, 120)}`,
        );
      }
    };

    for (const [template, methods] of Object.entries(document.paths)) {
      for (const [lower, op] of Object.entries(methods)) {
        const method = lower.toUpperCase();
        const parameters = op.parameters ?? [];
        const segment = (name: string) => encodeURIComponent(known[name]?.[0] ?? 'x');
        const pathWith = (bad?: { name: string; url: string }) =>
          template.replace(/\{([^}]+)\}/g, (_, name: string) =>
            name === bad?.name ? bad.url : segment(name),
          );
        const schema = op.requestBody?.content['application/json']?.schema;
        const sample = schema
          ? fc.sample(fromSchema(schema, document.components.schemas, 10_000), { seed: SEED, numRuns: 1 })[0]
          : undefined;
        const validBody = sample === undefined ? undefined : JSON.stringify(sample);

        for (const bad of BAD) {
          for (const p of parameters.filter((p) => p.in === 'path')) {
            await expectNamed(method, pathWith({ name: p.name, url: bad.url }), p.name, validBody);
          }
          for (const p of parameters.filter((p) => p.in === 'query')) {
            await expectNamed(method, `${pathWith()}?${p.name}=${bad.url}`, p.name, validBody);
          }
          if (!schema) continue;
          const resolved = resolve(schema, document.components.schemas);
          const top = Object.entries(resolved.properties ?? {})
            .filter(([, property]) => resolve(property, document.components.schemas).type === 'string')
            .map(([key]) => [key]);
          const leaves = [...stringLeaves(sample), ...top].slice(0, 16);
          // A body that is itself a bare value (`z.unknown()` bodies) still gets an array and an object to hold it.
          const holders = leaves.length > 0 ? [sample] : [['x'], { name: 'x' }];
          for (const holder of holders) {
            for (const leaf of leaves.length > 0 ? leaves : stringLeaves(holder)) {
              const body = JSON.stringify(withLeaf(holder ?? {}, leaf, bad.json));
              await expectNamed(method, pathWith(), fieldName(leaf) || 'body', body);
            }
          }
          if (typeof sample === 'object' && sample !== null && !Array.isArray(sample)) {
            const key = `k${bad.json}`;
            await expectNamed(method, pathWith(), key, JSON.stringify({ ...sample, [key]: 1 }));
          }
        }
      }
    }
    console.info(`[fuzz] ${backend.name}: ${sent} requests with U+0000 or a lone surrogate`);
    expect(misses).toEqual([]);
  }, 120_000);
});
