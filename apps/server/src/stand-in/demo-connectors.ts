import { randomUUID } from 'node:crypto';
import { access, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileConnector } from '@platform/compile';
import { type AuthType, splitSecrets } from '@platform/core';
import { type Database, insertConnector, type SecretBox, schema, setConnectorAuth } from '@platform/store';
import type { StandInCredentials } from './credentials.ts';

/** The demo connectors' projects, beside the repository's other examples. */
const EXAMPLES = ['examples', 'connectors'] as const;

type DemoProject = { folder: 'stand-in-media' | 'stand-in-data'; auth: AuthType };
const projects: DemoProject[] = [
  { folder: 'stand-in-media', auth: 'oAuth2ClientCredentials' },
  { folder: 'stand-in-data', auth: 'staticKey' },
];

/** The repository's examples folder, found upwards from this module (src/ or the bundle in dist/). */
const examplesDir = async (): Promise<string | undefined> => {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, ...EXAMPLES);
    try {
      await access(join(candidate, 'stand-in-media', 'connector.ts'));
      return candidate;
    } catch {
      const up = dirname(dir);
      if (up === dir) return undefined;
      dir = up;
    }
  }
};

type PackageJson = {
  description?: string;
  version: string;
  config: {
    connectorName: string;
    type: 'media' | 'data';
    allowedDomains: string[];
    supportedAuth: AuthType[];
  };
};

const authDataOf = (type: AuthType, origin: string, credentials: StandInCredentials) =>
  type === 'staticKey'
    ? { key: credentials.apiKeyHeader, value: credentials.apiKey }
    : {
        clientId: credentials.clientId,
        clientSecret: credentials.clientSecret,
        tokenEndpoint: `${origin}/dev/stand-in/oauth/token`,
      };

/**
 * Publishes the two demo connectors (examples/connectors/stand-in-*) into every environment, with both usages
 * authorized against the stand-in API at `origin`, so the console's Try-it answers on a fresh machine. Runs once,
 * when the demo data was loaded into an empty database at this start. Returns how many connectors it published;
 * 0 when the examples are not there (an installed server without the repository).
 */
export const publishDemoConnectors = async (params: {
  database: Database;
  secrets: SecretBox;
  credentials: StandInCredentials;
  origin: string;
  now: Date;
}): Promise<number> => {
  const { database, secrets, credentials, origin, now } = params;
  const dir = await examplesDir();
  if (dir === undefined) return 0;
  const built = await Promise.all(
    projects.map(async (project) => {
      const pkg = JSON.parse(
        await readFile(join(dir, project.folder, 'package.json'), 'utf8'),
      ) as PackageJson;
      return {
        project,
        pkg,
        script: await compileConnector(join(dir, project.folder, 'connector.ts'), { strictImports: true }),
      };
    }),
  );
  const environments = await database.db.select({ id: schema.environments.id }).from(schema.environments);
  return database.db.transaction(async (tx) => {
    let published = 0;
    for (const { id: environmentId } of environments) {
      for (const { project, pkg, script } of built) {
        const connector = await insertConnector(tx, {
          id: randomUUID(),
          environmentId,
          name: pkg.config.connectorName,
          description: pkg.description ?? null,
          version: pkg.version,
          type: pkg.config.type,
          iconUrl: null,
          options: { baseUrl: `${origin}/dev/stand-in` },
          script,
          apiVersion: '1.14.0',
          allowedDomains: pkg.config.allowedDomains,
          forwardedHeaders: false,
          supportedAuth: pkg.config.supportedAuth,
          enabled: true,
          now,
        });
        const { publicData, secretData } = splitSecrets(
          project.auth,
          authDataOf(project.auth, origin, credentials) as never,
        );
        for (const usage of ['browser', 'server'] as const) {
          await setConnectorAuth(tx, {
            id: randomUUID(),
            connectorId: connector.id,
            usage,
            type: project.auth,
            name: `Stand-in ${project.auth} (${usage})`,
            publicData,
            secretData: secrets.seal(JSON.stringify(secretData)),
            now,
          });
        }
        published++;
      }
    }
    return published;
  });
};
