import { testBackends } from '@platform/store/testing';
import { describe, expect, it } from 'vitest';
import { USERS } from '../support/fixture.ts';
import { environmentApi, envPath, expectFields, expectProblem } from './support.ts';

type Tag = { id: string; name: string };
type Template = {
  id: string;
  name: string;
  tags: Tag[];
  DateCreated: string;
  LastModifiedContentUtc: string;
};
type Page = { data: Template[]; pageSize: number; links: { nextPage: string | null } };

const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

describe.each(await testBackends())('templates and tags on $name', (backend) => {
  const { call, s } = environmentApi(backend);
  const owner = { user: USERS.owner };
  // Each test works in its own environment so listings are exact.
  const sandbox = envPath('acme-sandbox');
  const dev = envPath('acme-dev');
  const prod = envPath('acme-prod');

  const createTemplate = async (base: string, name: string, content?: string) => {
    const reply = await call<Template>('POST', `${base}/templates`, {
      ...owner,
      body: content === undefined ? { name } : { name, content },
    });
    expect(reply.status, reply.text).toBe(201);
    return reply.body;
  };
  const createTag = async (base: string, name: string) => {
    const reply = await call<Tag>('POST', `${base}/tags`, { ...owner, body: { name } });
    expect(reply.status, reply.text).toBe(201);
    return reply.body;
  };

  it('creates, reads, updates and deletes a template; content changes alone move LastModifiedContentUtc', async () => {
    const created = await createTemplate(prod, 'Flyer', 'v1');
    expect(created).toMatchObject({ name: 'Flyer', tags: [] });
    expect(created.LastModifiedContentUtc).toBe(created.DateCreated);
    expect(new Date(created.DateCreated).toISOString()).toBe(created.DateCreated);

    const got = await call<Template>('GET', `${prod}/templates/${created.id}`, owner);
    expect(got.body).toEqual(created);

    await pause();
    const renamed = await call<Template>('PUT', `${prod}/templates/${created.id}`, {
      ...owner,
      body: { name: 'Flyer A5', content: 'v1' },
    });
    expect(renamed.body).toMatchObject({
      name: 'Flyer A5',
      LastModifiedContentUtc: created.LastModifiedContentUtc,
    });
    await pause();
    const edited = await call<Template>('PUT', `${prod}/templates/${created.id}`, {
      ...owner,
      body: { content: 'v2' },
    });
    expect(edited.body.name).toBe('Flyer A5');
    expect(edited.body.DateCreated).toBe(created.DateCreated);
    expect(Date.parse(edited.body.LastModifiedContentUtc)).toBeGreaterThan(
      Date.parse(created.LastModifiedContentUtc),
    );
    const same = await call<Template>('PUT', `${prod}/templates/${created.id}`, { ...owner, body: {} });
    expect(same.body).toEqual(edited.body);

    expect((await call('DELETE', `${prod}/templates/${created.id}`, owner)).status).toBe(204);
    expectProblem(await call('GET', `${prod}/templates/${created.id}`, owner), 404);
    expectProblem(await call('DELETE', `${prod}/templates/${created.id}`, owner), 404);
    expectProblem(await call('PUT', `${prod}/templates/${created.id}`, { ...owner, body: {} }), 404);
    expectProblem(await call('GET', `${prod}/templates/nope`, owner), 404);
  });

  it('keeps the template document as any JSON value up to 5 MiB and downloads it as stored', async () => {
    const document = {
      pages: [{ frames: [{ id: 'f1', x: 1.5 }] }],
      title: 'Poster',
      zeta: null,
      alpha: true,
    };
    const created = await call<Template>('POST', `${prod}/templates`, {
      ...owner,
      body: { name: 'Poster', content: document },
    });
    expect(created.status, created.text).toBe(201);
    const download = (id: string) => call('GET', `${prod}/templates/${id}/download`, owner);
    const raw = await s.tp.call(`${prod}/templates/${created.body.id}/download`, {
      token: await s.tp.token(USERS.owner, ['platform:read']),
    });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toBe('application/json');
    // As stored: the same JSON text, key order included.
    expect(await raw.text()).toBe(JSON.stringify(document));

    // The same document again leaves LastModifiedContentUtc; another one moves it; a rename does not.
    await pause();
    const same = await call<Template>('PUT', `${prod}/templates/${created.body.id}`, {
      ...owner,
      body: { name: 'Poster A3', content: document },
    });
    expect(same.body.LastModifiedContentUtc).toBe(created.body.LastModifiedContentUtc);
    await pause();
    const changed = await call<Template>('PUT', `${prod}/templates/${created.body.id}`, {
      ...owner,
      body: { content: [1, 'two', { three: 3 }] },
    });
    expect(Date.parse(changed.body.LastModifiedContentUtc)).toBeGreaterThan(
      Date.parse(created.body.LastModifiedContentUtc),
    );
    expect((await download(created.body.id)).body).toEqual([1, 'two', { three: 3 }]);

    // Without content the document is null; a string is a document too.
    const empty = await createTemplate(prod, 'Empty');
    expect((await download(empty.id)).text).toBe('null');
    const text = await createTemplate(prod, 'Text', 'just text');
    expect((await download(text.id)).body).toBe('just text');
    expectProblem(await download('00000000-0000-4000-8000-000000000000'), 404);

    // Up to 5 MiB of JSON: a body of 5 MiB is accepted, a document over it is a 400 naming content.
    const big = 'x'.repeat(5 * 1024 * 1024 - 2);
    const large = await call<Template>('POST', `${prod}/templates`, {
      ...owner,
      body: { name: 'Big', content: big },
    });
    expect(large.status, large.text.slice(0, 200)).toBe(201);
    expect((await download(large.body.id)).text.length).toBe(5 * 1024 * 1024);
    expectFields(
      await call('PUT', `${prod}/templates/${large.body.id}`, { ...owner, body: { content: `${big}y` } }),
      ['content'],
    );
    // Nesting deeper than 512 levels is refused by name, however deep (no stack overflow, no 500).
    const deep = `{"name":"Deep","content":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expectFields(await call('POST', `${prod}/templates`, { ...owner, raw: deep }), ['content']);
  });

  it('answers 400 naming each bad field of template bodies', async () => {
    expectFields(await call('POST', `${prod}/templates`, { ...owner, body: {} }), ['name']);
    expectFields(
      await call('POST', `${prod}/templates`, { ...owner, body: { name: '  ', content: 5, x: 1 } }),
      ['name', 'x'],
    );
    const t = await createTemplate(prod, 'Validated');
    expectFields(await call('PUT', `${prod}/templates/${t.id}`, { ...owner, body: { name: '' } }), ['name']);
  });

  it('pages by name with an opaque cursor, searches by name and filters by tag', async () => {
    const names = ['delta', 'Alpha', 'charlie', 'Bravo', 'echo', 'alpha'];
    const made = new Map<string, Template>();
    for (const name of names) made.set(name, await createTemplate(sandbox, name));
    const print = await createTag(sandbox, 'Print');
    await call('PUT', `${sandbox}/templates/${made.get('charlie')!.id}/tags`, {
      ...owner,
      body: { tagIds: [print.id] },
    });
    await call('PUT', `${sandbox}/templates/${made.get('Alpha')!.id}/tags`, {
      ...owner,
      body: { tagIds: [print.id] },
    });

    const seen: string[] = [];
    let next: string | null = `${sandbox}/templates?limit=4`;
    let pages = 0;
    while (next) {
      const path: string = next.startsWith('http') ? next.slice(new URL(next).origin.length) : next;
      const page = await call<Page>('GET', path, owner);
      expect(page.status, page.text).toBe(200);
      expect(page.body.pageSize).toBe(4);
      seen.push(...page.body.data.map((t) => t.name));
      next = page.body.links.nextPage;
      pages++;
    }
    expect(pages).toBe(2);
    expect(seen).toEqual(['Alpha', 'Bravo', 'alpha', 'charlie', 'delta', 'echo']);

    // tRPC's input is JSON: a page size there is a number (or, as in the query string, text).
    for (const limit of [4, '4']) {
      const input = encodeURIComponent(JSON.stringify({ environment: 'acme-sandbox', limit }));
      const viaTrpc = await call<{ result: { data: Page } }>(
        'GET',
        `/trpc/templates.list?input=${input}`,
        owner,
      );
      expect(viaTrpc.status, viaTrpc.text).toBe(200);
      expect(viaTrpc.body.result.data.data.map((t) => t.name)).toEqual([
        'Alpha',
        'Bravo',
        'alpha',
        'charlie',
      ]);
    }
    for (const limit of [0, 101, 2.5, true]) {
      const input = encodeURIComponent(JSON.stringify({ environment: 'acme-sandbox', limit }));
      const refused = await call<{ error: { data: { errors: Record<string, string[]> } } }>(
        'GET',
        `/trpc/templates.list?input=${input}`,
        owner,
      );
      expect(refused.status, String(limit)).toBe(400);
      expect(refused.body.error.data.errors.limit, String(limit)).toEqual(['an integer from 1 to 100']);
    }

    const all = await call<Page>('GET', `${sandbox}/templates`, owner);
    expect(all.body.pageSize).toBe(25);
    expect(all.body.links.nextPage).toBeNull();
    expect(all.body.data.find((t) => t.name === 'charlie')?.tags).toEqual([print]);

    const search = await call<Page>('GET', `${sandbox}/templates?search=ALPH`, owner);
    expect(search.body.data.map((t) => t.name)).toEqual(['Alpha', 'alpha']);
    const byTag = await call<Page>('GET', `${sandbox}/templates?tagId=${print.id}&limit=1`, owner);
    expect(byTag.body.data.map((t) => t.name)).toEqual(['Alpha']);
    expect(byTag.body.links.nextPage).toContain(`tagId=${print.id}`);
    const nextByTag = byTag.body.links.nextPage!;
    const second = await call<Page>('GET', nextByTag.slice(new URL(nextByTag).origin.length), owner);
    expect(second.body.data.map((t) => t.name)).toEqual(['charlie']);
    expect(second.body.links.nextPage).toBeNull();
    const unknownTag = await call<Page>(
      'GET',
      `${sandbox}/templates?tagId=00000000-0000-4000-8000-00000000abcd`,
      owner,
    );
    expect(unknownTag.body.data).toEqual([]);
    // Not a GUID: it cannot name a tag, so 404 as every malformed id where no 400 is listed.
    for (const tagId of ['nope', '']) {
      expectProblem(await call('GET', `${sandbox}/templates?tagId=${tagId}`, owner), 404);
    }
  });

  it('answers 400 for bad list parameters', async () => {
    for (const limit of ['0', '101', 'ten', '-1', '1.5', '']) {
      expectFields(await call('GET', `${prod}/templates?limit=${limit}`, owner), ['limit']);
    }
    expectFields(await call('GET', `${prod}/templates?limit=1&limit=2`, owner), ['limit']);
    expectFields(await call('GET', `${prod}/templates?tagId=a&tagId=b`, owner), ['tagId']);
    expectFields(await call('GET', `${prod}/templates?nextPageToken=garbage`, owner), ['nextPageToken']);
    // Each message says what is wrong: given twice, or too long.
    const twice = expectFields(await call('GET', `${prod}/templates?search=a&search=b`, owner), ['search']);
    expect(twice.errors?.search).toEqual(['must be given once, as a single value']);
    const long = expectFields(await call('GET', `${prod}/templates?search=${'x'.repeat(201)}`, owner), [
      'search',
    ]);
    expect(long.errors?.search?.[0]).toContain('200');
    const forged = Buffer.from(JSON.stringify(['a', 'not-a-guid'])).toString('base64url');
    expectFields(await call('GET', `${prod}/templates?nextPageToken=${forged}`, owner), ['nextPageToken']);
  });

  it('creates, renames and deletes tags; names are unique per environment ignoring case (409)', async () => {
    const social = await createTag(dev, 'Social');
    const seasonal = await createTag(dev, 'Seasonal');
    expectProblem(await call('POST', `${dev}/tags`, { ...owner, body: { name: 'SOCIAL' } }), 409);
    // The same name in another environment is fine.
    await createTag(prod, 'Social');

    const list = await call<{ data: Tag[] }>('GET', `${dev}/tags`, owner);
    expect(list.body.data).toEqual([seasonal, social]);

    const recased = await call<Tag>('PUT', `${dev}/tags/${social.id}`, {
      ...owner,
      body: { name: 'social' },
    });
    expect(recased.body).toEqual({ id: social.id, name: 'social' });
    expectProblem(
      await call('PUT', `${dev}/tags/${seasonal.id}`, { ...owner, body: { name: 'Social' } }),
      409,
    );
    expectFields(await call('POST', `${dev}/tags`, { ...owner, body: { name: '' } }), ['name']);
    expectFields(await call('PUT', `${dev}/tags/${social.id}`, { ...owner, body: {} }), ['name']);

    const template = await createTemplate(dev, 'Post');
    const assigned = await call<Template>('PUT', `${dev}/templates/${template.id}/tags`, {
      ...owner,
      body: { tagIds: [social.id, seasonal.id, social.id.toUpperCase()] },
    });
    expect(assigned.body.tags).toEqual([seasonal, { id: social.id, name: 'social' }]);

    expect((await call('DELETE', `${dev}/tags/${seasonal.id}`, owner)).status).toBe(204);
    const after = await call<Template>('GET', `${dev}/templates/${template.id}`, owner);
    expect(after.body.tags).toEqual([{ id: social.id, name: 'social' }]);
    expectProblem(await call('DELETE', `${dev}/tags/${seasonal.id}`, owner), 404);
    expectProblem(await call('PUT', `${dev}/tags/${seasonal.id}`, { ...owner, body: { name: 'x' } }), 404);
    expectProblem(await call('DELETE', `${dev}/tags/not-a-guid`, owner), 404);

    const cleared = await call<Template>('PUT', `${dev}/templates/${template.id}/tags`, {
      ...owner,
      body: { tagIds: [] },
    });
    expect(cleared.body.tags).toEqual([]);
  });

  it('refuses unknown tag ids naming each, and changes nothing', async () => {
    const tag = await createTag(prod, 'Kept');
    const foreign = await createTag(dev, 'Foreign');
    const template = await createTemplate(prod, 'Tagged');
    await call('PUT', `${prod}/templates/${template.id}/tags`, { ...owner, body: { tagIds: [tag.id] } });
    const refused = expectFields(
      await call('PUT', `${prod}/templates/${template.id}/tags`, {
        ...owner,
        body: { tagIds: ['00000000-0000-4000-8000-00000000abcd', tag.id, foreign.id] },
      }),
      ['tagIds[0]', 'tagIds[2]'],
    );
    expect(refused.errors?.['tagIds[2]']?.[0]).toContain(foreign.id);
    expect((await call<Template>('GET', `${prod}/templates/${template.id}`, owner)).body.tags).toEqual([tag]);
    expectFields(
      await call('PUT', `${prod}/templates/${template.id}/tags`, { ...owner, body: { tagIds: ['x'] } }),
      ['tagIds[0]'],
    );
    expectFields(await call('PUT', `${prod}/templates/${template.id}/tags`, { ...owner, body: {} }), [
      'tagIds',
    ]);
  });
});
