import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../query-rows.ts';
import { connectors, tags, templates, templateTags } from '../../schema/environment-api.ts';
import type { Database } from '../../types.ts';

const DEMO_SCRIPT = `// Demo connector (media or data): a complete connector whose source has nothing to list yet.
export default class DemoConnector {
  constructor(runtime) { this.runtime = runtime; }
  getCapabilities() { return { query: true, detail: true, filtering: false, metadata: false, sorting: false, model: true }; }
  getConfigurationOptions() { return []; }
  async query() { return { pageSize: 0, data: [], links: { nextPage: '' } }; }
  async detail() { throw new ConnectorHttpError(404, 'the demo source holds no assets'); }
  async download() { throw new ConnectorHttpError(404, 'the demo source holds no assets'); }
  async getModel() { return { properties: [] }; }
  async getPage() { return { data: [], continuationToken: null }; }
}
`;

const demoConnectors = [
  {
    name: 'Demo media (Unsplash)',
    description: 'Images from a public photo library; no authorization configured.',
    type: 'media',
    allowedDomains: ['api.unsplash.com', '*.unsplash.com'],
    supportedAuth: ['staticKey'],
  },
  {
    name: 'Demo data (product catalogue)',
    description: 'Product rows from a demo catalogue API; no authorization configured.',
    type: 'data',
    allowedDomains: ['catalogue.example.com'],
    supportedAuth: ['oAuth2ClientCredentials', 'oAuth2AuthorizationCode'],
  },
];

const demoTags = ['Print', 'Social', 'Seasonal'];

const demoTemplates: { name: string; tags: string[] }[] = [
  { name: 'A4 flyer', tags: ['Print'] },
  { name: 'Business card', tags: ['Print'] },
  { name: 'Instagram post', tags: ['Social'] },
  { name: 'Holiday banner', tags: ['Social', 'Seasonal'] },
  { name: 'Product sheet', tags: [] },
];

/**
 * Demo content of the environment API: a few connectors (without authorization), tags and templates, for every
 * environment that has no connector, template or tag yet, so a restart never adds to real content. Returns how
 * many environments were given demo content.
 */
export const seedEnvironmentDemo = (database: Database, now: Date): Promise<number> =>
  database.db.transaction(async (tx) => {
    const empty = await queryRows<{ id: number }>(
      tx,
      sql`select e.id from environments e
          where not exists (select 1 from connectors c where c.environment_id = e.id)
            and not exists (select 1 from templates t where t.environment_id = e.id)
            and not exists (select 1 from tags g where g.environment_id = e.id)
          order by e.id`,
    );
    for (const { id: environmentId } of empty) {
      await tx.insert(connectors).values(
        demoConnectors.map((c) => ({
          ...c,
          id: randomUUID(),
          environmentId,
          version: '1.0.0',
          iconUrl: null,
          options: {},
          script: DEMO_SCRIPT,
          apiVersion: '1.0',
          forwardedHeaders: false,
          enabled: true,
          isDefault: false,
          createdAt: now,
          updatedAt: now,
        })),
      );
      const tagIds = new Map(demoTags.map((name) => [name, randomUUID()]));
      await tx.insert(tags).values([...tagIds].map(([name, id]) => ({ id, environmentId, name })));
      const rows = demoTemplates.map((t) => ({
        id: randomUUID(),
        environmentId,
        name: t.name,
        content: JSON.stringify({ pages: [{ frames: [] }], title: t.name }),
        createdAt: now,
        contentModifiedAt: now,
      }));
      await tx.insert(templates).values(rows);
      const links = demoTemplates.flatMap((t, i) =>
        t.tags.map((name) => ({ templateId: rows[i]!.id, tagId: tagIds.get(name)! })),
      );
      if (links.length > 0) await tx.insert(templateTags).values(links);
    }
    return empty.length;
  });
