import { readFile } from 'node:fs/promises';
import { DataFile } from '@platform/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { importDataFile } from '../src/import/import-data-file.ts';
import { type TestDatabase, testBackends } from '../src/test-support.ts';

const example = JSON.parse(
  await readFile(new URL('../../../examples/data.json', import.meta.url), 'utf8'),
) as unknown;

/** Every key path a schema allows: `subscriptions[].environments[].storage.assets`. */
const schemaPaths = (schema: z.ZodType, prefix = ''): string[] => {
  const def = schema._zod.def as { type: string; innerType?: z.ZodType; element?: z.ZodType };
  if (def.type === 'default' || def.type === 'nullable' || def.type === 'optional')
    return schemaPaths(def.innerType!, prefix);
  if (def.type === 'array') return schemaPaths(def.element!, `${prefix}[]`);
  if (schema instanceof z.ZodObject)
    return Object.entries(schema.shape).flatMap(([key, inner]) => {
      const path = prefix ? `${prefix}.${key}` : key;
      return [path, ...schemaPaths(inner as z.ZodType, path)];
    });
  return [];
};

/** Every key path a JSON value uses (record keys such as environment guids are not paths of the schema). */
const valuePaths = (value: unknown, prefix = '', record = new Set(['environmentRoles'])): string[] => {
  if (Array.isArray(value)) return value.flatMap((item) => valuePaths(item, `${prefix}[]`, record));
  if (value === null || typeof value !== 'object') return [];
  if (record.has(prefix.split('.').at(-1) ?? '')) return [];
  return Object.entries(value).flatMap(([key, inner]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return [path, ...valuePaths(inner, path, record)];
  });
};

describe('examples/data.json', () => {
  it('uses every field of the data file at least once', () => {
    const used = new Set(valuePaths(example));
    const missing = schemaPaths(DataFile).filter((path) => !used.has(path));
    expect(missing).toEqual([]);
  });

  it('uses a non-null value of every nullable field somewhere', () => {
    const text = JSON.stringify(example);
    for (const key of [
      'avatar',
      'lastSeen',
      'endDate',
      'maxSpaces',
      'isExperienceEnabled',
      'url',
      'coresTotal',
    ])
      expect(text, key).toMatch(new RegExp(`"${key}":(?!null)`));
  });
});

describe.each(await testBackends())('examples/data.json on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.fresh();
  });
  afterEach(() => database.close());

  it('imports cleanly', async () => {
    expect(await importDataFile(database, example)).toEqual({
      users: 3,
      subscriptions: 1,
      environments: 2,
      newEnvironments: 2,
      members: 3,
      renderEvents: 3,
      auditEntries: 1,
    });
  });
});
