import { STANDARD_SUBJECT_TYPES, schema } from '@platform/store';
import { testBackends } from '@platform/store/testing';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ENV_DEV, USERS } from '../support/fixture.ts';
import { environmentApi, envPath, expectFields, expectProblem } from './support.ts';

type SubjectType = { id: string; name: string };
type Assignment = { subjectTypeId: string; name: string; assigned: boolean; updatedAt: string | null };
type MediaTypes = { id: string; subjectTypes: Assignment[] };

const UNKNOWN = '00000000-0000-4000-8000-00000000abcd';

describe.each(await testBackends())('vision subject types and media on $name', (backend) => {
  const { s, call } = environmentApi(backend);
  const owner = { user: USERS.owner };
  const base = envPath('acme-prod');

  const subjectTypes = async (path = base) =>
    (await call<{ subjectTypes: SubjectType[] }>('GET', `${path}/vision?expand=allSubjectTypes`, owner)).body
      .subjectTypes;

  it('lists the standard subject types, seeding an environment that has none', async () => {
    const types = await subjectTypes();
    expect(types.map((t) => t.name).sort()).toEqual([...STANDARD_SUBJECT_TYPES].sort());
    const without = await call<{ subjectTypes: SubjectType[] }>('GET', `${base}/vision`, owner);
    expect(without.body.subjectTypes).toEqual(types);
    const unknown = expectFields(await call('GET', `${base}/vision?expand=everything`, owner), ['expand']);
    expect(unknown.errors?.expand).toEqual(['the only expansion is allSubjectTypes']);
    const twice = expectFields(
      await call('GET', `${base}/vision?expand=allSubjectTypes&expand=allSubjectTypes`, owner),
      ['expand'],
    );
    expect(twice.errors?.expand).toEqual(['must be given once, as a single value']);

    const dev = await s.tp.database.db.query.environments.findFirst({
      where: eq(schema.environments.guid, ENV_DEV),
    });
    await s.tp.database.db.delete(schema.subjectTypes).where(eq(schema.subjectTypes.environmentId, dev!.id));
    const seeded = await subjectTypes(envPath('acme-dev'));
    expect(seeded).toHaveLength(STANDARD_SUBJECT_TYPES.length);
    expect(await subjectTypes(envPath('acme-dev'))).toEqual(seeded);
  });

  for (const kind of ['media', 'external-media'] as const) {
    const update = (id: string, body: unknown) =>
      kind === 'media'
        ? call<MediaTypes>('PATCH', `${base}/media/${id}`, { ...owner, body })
        : call<MediaTypes>('PUT', `${base}/external-media/${id}/vision`, { ...owner, body });
    const readOne = (id: string, subjectTypeId: string) =>
      call<Assignment>('GET', `${base}/${kind}/${id}/vision/subject-types/${subjectTypeId}`, owner);

    it(`reads and sets the subject types of ${kind}, one or many at once`, async () => {
      const [person, animal, food] = (await subjectTypes()).filter((t) =>
        ['Person', 'Animal', 'Food'].includes(t.name),
      );
      const created = await call<{ id: string; name: string }>('POST', `${base}/${kind}`, {
        ...owner,
        body: { name: 'Beach.jpg' },
      });
      expect(created.status).toBe(201);
      expect(created.body.name).toBe('Beach.jpg');
      const id = created.body.id;

      const unset = await readOne(id, person!.id);
      expect(unset.body).toEqual({
        subjectTypeId: person!.id,
        name: person!.name,
        assigned: false,
        updatedAt: null,
      });

      const one = await update(id, { subjectTypes: [{ id: person!.id, assigned: true }] });
      expect(one.status).toBe(200);
      expect(one.body.id).toBe(id);
      expect(one.body.subjectTypes).toHaveLength(STANDARD_SUBJECT_TYPES.length);
      expect(one.body.subjectTypes.filter((t) => t.assigned).map((t) => t.name)).toEqual([person!.name]);

      const many = await update(id, {
        subjectTypes: [
          { id: person!.id, assigned: false },
          { id: animal!.id, assigned: true },
          { id: food!.id.toUpperCase(), assigned: true },
        ],
      });
      expect(
        many.body.subjectTypes
          .filter((t) => t.assigned)
          .map((t) => t.name)
          .sort(),
      ).toEqual([animal!.name, food!.name].sort());
      const read = await readOne(id, person!.id);
      expect(read.body).toMatchObject({ assigned: false, updatedAt: expect.any(String) });
      expect((await readOne(id, animal!.id)).body.assigned).toBe(true);

      // An unknown id (or a repeated one) → 400 naming it, and nothing changes.
      const refused = expectFields(
        await update(id, {
          subjectTypes: [
            { id: person!.id, assigned: true },
            { id: UNKNOWN, assigned: true },
          ],
        }),
        ['subjectTypes[1].id'],
      );
      expect(refused.errors?.['subjectTypes[1].id']?.[0]).toContain(UNKNOWN);
      expect((await readOne(id, person!.id)).body.assigned).toBe(false);
      expectFields(
        await update(id, {
          subjectTypes: [
            { id: animal!.id, assigned: true },
            { id: animal!.id, assigned: false },
          ],
        }),
        ['subjectTypes[1].id'],
      );
      expectFields(await update(id, { subjectTypes: [] }), ['subjectTypes']);
      expectFields(await update(id, { subjectTypes: [{ id: 'x', assigned: 'yes' }] }), [
        'subjectTypes[0].id',
        'subjectTypes[0].assigned',
      ]);
      expectFields(await call('POST', `${base}/${kind}`, { ...owner, body: { name: '' } }), ['name']);

      expectProblem(await readOne(id, UNKNOWN), 404);
      expectProblem(await readOne(UNKNOWN, person!.id), 404);
      expectProblem(await readOne('nope', person!.id), 404);
      // Media must exist; an external asset is recorded by its first PUT (its source, not the platform, made it).
      if (kind === 'media')
        expectProblem(await update(UNKNOWN, { subjectTypes: [{ id: person!.id, assigned: true }] }), 404);
      // Media and external media are apart: one is not found through the other's paths.
      const otherKind = kind === 'media' ? 'external-media' : 'media';
      expectProblem(
        await call('GET', `${base}/${otherKind}/${id}/vision/subject-types/${person!.id}`, owner),
        404,
      );
      // A subject type of another environment is unknown here.
      const [foreign] = await subjectTypes(envPath('acme-sandbox'));
      expectProblem(await readOne(id, foreign!.id), 404);
      expectFields(await update(id, { subjectTypes: [{ id: foreign!.id, assigned: true }] }), [
        'subjectTypes[0].id',
      ]);
    });
  }
});
