import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { testBackends } from '@platform/store/testing';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUB_A, USERS } from '../support/fixture.ts';
import { json, seededPlatform } from '../support/seeded.ts';

const exec = promisify(execFile);
const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';

/** npm as a user runs it: without the npm_* variables of an enclosing `npm test`. */
const npmEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
const npm = async (args: string[], cwd: string) => {
  const { stdout } = await exec('npm', args, { cwd, env: npmEnv, maxBuffer: 16 * 1024 * 1024 });
  return stdout;
};

/**
 * `npm pack` of a workspace package; its prepack builds it, unless `built` says this suite's globalSetup already
 * did (the CLI: rebuilding it here would swap its dist/ under the CLI tests running beside this one).
 */
const pack = async (packageDir: string, destination: string, built = false) => {
  const args = ['pack', '--json', '--pack-destination', destination, ...(built ? ['--ignore-scripts'] : [])];
  const [packed] = JSON.parse(await npm(args, join(repo, packageDir))) as {
    filename: string;
    files: { path: string }[];
  }[];
  return { tarball: join(destination, packed!.filename), files: packed!.files.map((f) => f.path) };
};

type Tree = { version?: string; dependencies?: Record<string, Tree> };
/** The names of every installed package under a node of `npm ls --all --json` (optional peers left out are `{}`). */
const closure = (tree: Tree): string[] =>
  Object.entries(tree.dependencies ?? {}).flatMap(([name, sub]) =>
    sub.version ? [name, ...closure(sub)] : [],
  );

/** The typescript of the repository: a client team's own devDependency, which tRPC's peer dependency wants. */
const typescriptVersion = (
  JSON.parse(await readFile(join(repo, 'node_modules/typescript/package.json'), 'utf8')) as {
    version: string;
  }
).version;

/** A program a client team writes, strict and typed against the installed package only. */
const program = (baseUrl: string, token: string) => `
import {
  createPlatformClient,
  createRestClient,
  PlatformApiError,
  type RouterInputs,
  type SubscriptionModel,
  type SubscriptionRendersModel,
} from '@platform/client';

const baseUrl = ${JSON.stringify(baseUrl)};
const subscriptionId = ${JSON.stringify(SUB_A)};
const trpc = createPlatformClient(baseUrl, () => ${JSON.stringify(token)});
const rest = createRestClient({ baseUrl, token: ${JSON.stringify(token)} });

const input: RouterInputs['subscriptions']['renders'] = { subscriptionId, groupBy: 'year', top: 1 };
const subscription: SubscriptionModel = await rest.subscriptions.get({ subscriptionId });
const viaRest: SubscriptionRendersModel[] = await rest.subscriptions.renders(input);
const viaTrpc = await trpc.subscriptions.renders.query(input);
const viaTrpcGet = await trpc.subscriptions.get.query({ subscriptionId });

let notFound: { status: number; code: string; traceId: string | undefined } | undefined;
try {
  await rest.environments.get({ environmentId: '00000000-0000-4000-8000-000000000000' });
} catch (error) {
  if (error instanceof PlatformApiError) notFound = { status: error.status, code: error.code, traceId: error.traceId };
}

// Typed misuse does not compile: each line below is an error that @ts-expect-error requires. Never called.
export const typedMisuse = async () => {
  // @ts-expect-error groupBy is 'year' or 'month'
  await trpc.subscriptions.renders.query({ subscriptionId, groupBy: 'week' });
  // @ts-expect-error top is a number
  await rest.subscriptions.renders({ subscriptionId, groupBy: 'year', top: '1' });
  // @ts-expect-error groupBy is required
  await rest.environments.renders({ environmentId: subscriptionId });
  // @ts-expect-error a misspelt parameter is refused
  await trpc.subscriptions.renders.query({ subscriptionId, groupBy: 'month', tpo: 1 });
  // @ts-expect-error subscriptionId is a string
  await rest.subscriptions.get({ subscriptionId: 42 });
  // @ts-expect-error the id is required
  await trpc.subscriptions.get.query({});
  // @ts-expect-error there is no such procedure
  await trpc.subscriptions.remove.mutate({ subscriptionId });
  // @ts-expect-error SubscriptionModel has no field 'owner'
  return subscription.owner;
};

const result = {
  subscription: subscription.name,
  renders: viaRest,
  same: JSON.stringify(viaRest) === JSON.stringify(viaTrpc) && viaTrpcGet.id === subscription.id,
  notFound,
};
if (typeof document === 'undefined') console.log(JSON.stringify(result));
else document.body.textContent = 'RESULT' + JSON.stringify(result);
`;

/** Strict, with nothing but the installed packages: no server types, no @types/node. */
const tsconfig = {
  compilerOptions: {
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    // tRPC's declarations use Disposable; the browser and Node 20 both have the DOM's fetch types.
    lib: ['ES2023', 'ESNext.Disposable', 'DOM'],
    types: [],
    skipLibCheck: false,
  },
  files: ['main.ts'],
};

describe.each((await testBackends()).slice(0, 1))(
  'packed packages installed outside the repository, on $name',
  (backend) => {
    const s = seededPlatform(backend);
    let folder: string;
    let token: string;
    const timings: Record<string, number> = {};
    const timed = async <T>(name: string, step: () => Promise<T>): Promise<T> => {
      const start = performance.now();
      try {
        return await step();
      } finally {
        timings[name] = Math.round(performance.now() - start);
      }
    };

    beforeAll(async () => {
      folder = await mkdtemp(join(tmpdir(), 'platform-pack-'));
      token = await s.tp.token(USERS.owner, ['platform:read']);
    });
    afterAll(async () => {
      console.info(`[pack test] milliseconds per step: ${JSON.stringify(timings)}`);
      await rm(folder, { recursive: true, force: true });
    });

    it('installs @platform/client with its declared dependencies only, compiles strictly and answers', async () => {
      const { tarball, files } = await timed('pack client', () => pack('packages/client', folder));
      expect(files).toContain('dist/index.d.ts');
      expect(files.filter((f) => !f.startsWith('dist/')).sort()).toEqual(['README.md', 'package.json']);
      await writeFile(
        join(folder, 'package.json'),
        JSON.stringify({ private: true, type: 'module', devDependencies: { typescript: typescriptVersion } }),
      );
      await timed('install', () =>
        npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], folder),
      );
      const tree = JSON.parse(await npm(['ls', '--all', '--json'], folder)) as Tree;
      // @trpc/client's peer dependencies: @trpc/server (its types) and typescript (the team's own). Nothing else.
      expect(new Set(closure(tree.dependencies!['@platform/client']!))).toEqual(
        new Set(['@trpc/client', '@trpc/server', 'typescript']),
      );
      const manifest = JSON.parse(
        await readFile(join(folder, 'node_modules/@platform/client/package.json'), 'utf8'),
      ) as { private?: boolean; exports: unknown };
      expect(manifest.private).toBeUndefined();

      await writeFile(join(folder, 'tsconfig.json'), JSON.stringify(tsconfig));
      await writeFile(join(folder, 'main.ts'), program(s.tp.url, token));
      await timed('tsc', () =>
        exec(process.execPath, [join(repo, 'node_modules/typescript/bin/tsc'), '-p', folder], {
          cwd: folder,
        }).catch((error: { stdout: string }) => {
          throw new Error(`tsc failed:\n${error.stdout}`);
        }),
      );
      const { stdout } = await timed('node', () => exec(process.execPath, ['main.js'], { cwd: folder }));
      const result = JSON.parse(stdout) as { renders: unknown };
      expect(result).toEqual({
        subscription: expect.any(String),
        renders: await json(
          await s.tp.call(`/api/v1/subscriptions/${SUB_A}/renders?groupBy=year&top=1`, { token }),
        ),
        same: true,
        notFound: { status: 404, code: 'NOT_FOUND', traceId: expect.any(String) },
      });
      expect(result.renders).not.toEqual([]);
    }, 240_000);

    it('installs the packed connector-cli in the same folder and runs --help', async () => {
      const { tarball, files } = await timed('pack cli', () => pack('packages/cli', folder, true));
      expect(files).toContain('dist/main.js');
      await timed('install cli', () =>
        npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], folder),
      );
      const { stdout } = await timed('connector-cli --help', () =>
        exec(join(folder, 'node_modules/.bin/connector-cli'), ['--help'], { cwd: folder }),
      );
      expect(stdout).toContain('set-auth');
    }, 240_000);

    it('bundles for the browser and answers there the same', async () => {
      const bundled = await timed('esbuild', () =>
        build({
          entryPoints: [join(folder, 'main.js')],
          absWorkingDir: folder,
          bundle: true,
          platform: 'browser',
          format: 'esm',
          target: 'es2022',
          write: false,
        }),
      );
      const script = bundled.outputFiles[0]!.text;
      const page = join(folder, 'page.html');
      await writeFile(page, `<!doctype html><body><script type="module">${script}</script></body>`);
      const chromium = await exec(CHROMIUM, ['--version']).then(
        () => true,
        () => false,
      );
      if (!chromium) {
        console.info('[pack test] browser run skipped: Debian chromium is not installed');
        return;
      }
      const profile = await mkdtemp(join(tmpdir(), 'chromium-'));
      try {
        const { stdout } = await timed('chromium', () =>
          exec(
            CHROMIUM,
            [
              '--headless',
              '--no-sandbox',
              '--disable-gpu',
              '--no-first-run',
              '--disable-background-networking',
              '--disable-component-update',
              '--disable-sync',
              // The page is a local file calling the server: only the same-origin policy is lifted, for this test.
              '--disable-web-security',
              `--user-data-dir=${profile}`,
              '--virtual-time-budget=15000',
              '--dump-dom',
              `file://${page}`,
            ],
            { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
          ),
        );
        const match = /RESULT(\{.*\})<\/body>/s.exec(stdout);
        expect(match, stdout.slice(-2000)).not.toBeNull();
        expect(JSON.parse(match![1]!.replaceAll('&amp;', '&'))).toMatchObject({
          same: true,
          notFound: { status: 404, code: 'NOT_FOUND' },
        });
      } finally {
        await rm(profile, { recursive: true, force: true });
      }
    }, 120_000);
  },
);
