import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { runCli, startCli, tempDir } from './helpers/run-cli.ts';

const EXAMPLES = fileURLToPath(new URL('../../../examples/connectors/', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const SDK = join(ROOT, 'node_modules', '@chili-publish', 'studio-connectors');

/** `tsc -p dir`: resolves when the project type-checks, rejects with tsc's messages otherwise. */
const typecheck = (dir: string) => promisify(execFile)(process.execPath, [TSC, '-p', dir]);

/** A copy of an example connector (the repository's own fixtures), so a build writes into a temporary folder. */
const example = (name: 'stand-in-media' | 'stand-in-data' | 'acme-library' | 'acme-catalog'): string => {
  const dir = join(tempDir('local-commands-'), name);
  cpSync(join(EXAMPLES, name), dir, { recursive: true });
  return dir;
};

const fresh = async (type: 'media' | 'data'): Promise<string> => {
  const dir = join(tempDir('local-new-'), 'project');
  const created = await runCli(['new', '--name', `Fresh ${type}`, '--type', type, '-o', dir]);
  expect(created.code).toBe(0);
  return dir;
};

describe('connector-cli test', () => {
  test.each(['stand-in-media', 'stand-in-data'] as const)(
    'the %s example passes its test file: one PASS line per test, exit 0',
    async (name) => {
      const dir = example(name);
      const result = await runCli(['test', dir, '-t', join(dir, 'tests.json')]);
      expect(result.stderr).toBe('3 of 3 tests passed\n');
      expect(result.code).toBe(0);
      const lines = result.stdout.trim().split('\n');
      expect(lines).toHaveLength(3);
      expect(lines.every((line) => line.startsWith('PASS: '))).toBe(true);
    },
  );

  // acme-catalog's file runs getPageItemById, which passes once the runtime has the SDK's current interface.
  test.each([
    ['acme-library', 6],
    ['acme-catalog', 5],
  ] as const)(
    "the %s example, written as the platform's connectors are, passes its %i tests",
    async (name, count) => {
      const dir = example(name);
      const result = await runCli(['test', dir, '-t', join(dir, 'tests.json')]);
      expect(
        result.stdout
          .trim()
          .split('\n')
          .filter((line) => line.startsWith('PASS: ')),
      ).toHaveLength(count);
      expect(result).toMatchObject({ code: 0, stderr: `${count} of ${count} tests passed\n` });
    },
  );

  test('failing tests: one FAIL line each naming the reason, one error line, exit 1', async () => {
    const dir = example('stand-in-media');
    const file = JSON.parse(readFileSync(join(dir, 'tests.json'), 'utf8'));
    // A fetch no assert names (the URL asks for pageSize 2, the assert for 3), and a count never reached.
    file.tests[0].asserts.fetch[0].url = file.tests[0].asserts.fetch[0].url.replace(
      'pageSize=2',
      'pageSize=3',
    );
    file.tests[1].asserts.fetch[0].count = 2;
    writeFileSync(join(dir, 'bad.json'), JSON.stringify(file));
    const result = await runCli(['test', dir, '-t', join(dir, 'bad.json')]);
    expect(result.code).toBe(1);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^FAIL: query asks for page 1.*pageSize=2 is not in asserts\.fetch/);
    expect(lines[1]).toMatch(/^FAIL: detail reads one asset.*expected 2 time\(s\), made 1/);
    expect(lines[2]).toMatch(/^PASS: download/);
    expect(result.stderr).toBe(
      'error: 2 of 3 tests failed; see the FAIL lines above and fix connector.ts or the test file\n',
    );
    // --json: the outcomes in the result on stdout, the failure as one JSON line on stderr.
    const json = await runCli(['--json', 'test', dir, '-t', join(dir, 'bad.json')]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ passed: 1, failed: 2 });
    const errorLines = json.stderr.trim().split('\n');
    expect(errorLines).toHaveLength(1);
    expect(JSON.parse(errorLines[0] ?? '')).toMatchObject({ error: { code: 'CONNECTOR_FAILED' } });
  });

  test('setup.runtime_options are the options the connector sees', async () => {
    const dir = example('stand-in-data');
    const file = JSON.parse(readFileSync(join(dir, 'tests.json'), 'utf8'));
    file.setup.runtime_options.baseUrl = 'https://elsewhere.example.com/api';
    writeFileSync(join(dir, 'moved.json'), JSON.stringify(file));
    const result = await runCli(['test', dir, '-t', join(dir, 'moved.json')]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'fetch GET https://elsewhere.example.com/api/data/products?limit=2 is not in asserts.fetch',
    );
  });

  test('an assert without a response fetches for real: an unreachable target is named with the reason', async () => {
    const dir = example('stand-in-data');
    const closed = createServer().listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    const file = JSON.parse(readFileSync(join(dir, 'tests.json'), 'utf8'));
    file.setup.runtime_options.baseUrl = `http://127.0.0.1:${port}/dev/stand-in`;
    file.tests = [file.tests[0]];
    file.tests[0].asserts.fetch[0].url = `http://127.0.0.1:${port}/dev/stand-in/data/products?limit=2`;
    delete file.tests[0].asserts.fetch[0].response;
    writeFileSync(join(dir, 'down.json'), JSON.stringify(file));
    const result = await runCli(['test', dir, '-t', join(dir, 'down.json')]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`The target 127.0.0.1:${port} could not be reached (ECONNREFUSED).`);
    expect(result.stdout).not.toContain('fetch failed: fetch failed');
  });

  test("reads files written for the platform's CLI: no id, headers as an object, a description", async () => {
    const dir = example('stand-in-media');
    const file = JSON.parse(readFileSync(join(dir, 'tests.json'), 'utf8'));
    for (const test of file.tests) {
      delete test.id;
      test.description = 'written for the platform CLI';
      for (const assert of test.asserts.fetch) {
        if (assert.response) assert.response.headers = Object.fromEntries(assert.response.headers);
      }
    }
    writeFileSync(join(dir, 'platform.json'), JSON.stringify(file));
    const result = await runCli(['test', dir, '-t', join(dir, 'platform.json')]);
    expect(result.stderr).toBe('3 of 3 tests passed\n');
    expect(result.code).toBe(0);
  });

  test('a test file that is not in the format is a usage error naming the place', async () => {
    const dir = example('stand-in-data');
    writeFileSync(join(dir, 'broken.json'), JSON.stringify({ tests: [{ id: 'a', name: 'n' }] }));
    const result = await runCli(['test', dir, '-t', join(dir, 'broken.json')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: .*broken\.json: tests\[0\]\.method .*; fix the test file\n$/);
    expect((await runCli(['test', dir])).stderr).toContain('missing required option -t <file>');
  });

  test('a project without connector.ts, or a directory without a project, is a usage error', async () => {
    const dir = tempDir('local-empty-');
    expect(await runCli(['info', dir])).toMatchObject({ code: 2 });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x', main: 'out/connector.js' }));
    const result = await runCli(['build', dir]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `error: no connector.ts in ${dir}; the local commands compile it (connector-cli new writes one)\n`,
    );
  });
});

describe('build, info, stress and demo on a fresh `connector-cli new` project', () => {
  test.each(['media', 'data'] as const)(
    '%s: each command works on the project as new writes it',
    async (type) => {
      const dir = await fresh(type);
      const built = await runCli(['build', dir]);
      expect(built).toMatchObject({ code: 0, stderr: '' });
      expect(built.stdout).toMatch(/^Built out\/connector\.js \(\d+ bytes\) from connector\.ts\n$/);
      const module = readFileSync(join(dir, 'out', 'connector.js'), 'utf8');
      expect(module).toContain('export');
      expect(module).not.toContain('@chili-publish/studio-connectors');

      const info = await runCli(['info', dir]);
      expect(info.code).toBe(0);
      const described = JSON.parse(info.stdout);
      expect(described).toMatchObject({ type, name: `Fresh ${type}`, options: {} });
      // The platform CLI's keys, which scripts written for its `info -o` file read.
      expect(Object.keys(described).slice(0, 7)).toEqual([
        'apiVersion',
        'capabilities',
        'configurationOptions',
        'type',
        'logoUrl',
        'supportedAuth',
        'runtimeOptions',
      ]);
      expect(described.runtimeOptions).toEqual(described.options);
      expect(described.capabilities).toBeTypeOf('object');
      expect(Array.isArray(described.supportedAuth)).toBe(true);
      const written = join(dir, 'info.json');
      expect((await runCli(['info', dir, '-o', written])).code).toBe(0);
      expect(JSON.parse(readFileSync(written, 'utf8'))).toEqual(described);

      const demo = await runCli(['demo', dir]);
      expect(demo.code).toBe(0);
      expect(existsSync(join(dir, 'tests.generated.json'))).toBe(true);
      const replay = await runCli(['test', dir, '-t', join(dir, 'tests.generated.json')]);
      expect(replay).toMatchObject({ code: 0, stderr: '1 of 1 tests passed\n' });
    },
  );

  test("info: apiVersion is the project's installed SDK, logoUrl its config.iconUrl, as the platform's CLI writes them", async () => {
    const dir = await fresh('media');
    const json = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    json.config = { ...json.config, iconUrl: 'https://cdn.example.com/logo.svg', options: { base: 'x' } };
    writeFileSync(join(dir, 'package.json'), JSON.stringify(json));
    const sdk = join(dir, 'node_modules', '@chili-publish', 'studio-connectors');
    mkdirSync(sdk, { recursive: true });
    writeFileSync(
      join(sdk, 'package.json'),
      JSON.stringify({ name: '@chili-publish/studio-connectors', version: '1.2.3' }),
    );
    const info = await runCli(['info', dir]);
    expect(info.code, info.stderr).toBe(0);
    expect(JSON.parse(info.stdout)).toMatchObject({
      apiVersion: '1.2.3',
      logoUrl: 'https://cdn.example.com/logo.svg',
      runtimeOptions: { base: 'x' },
    });
  });

  test("takes the connector's .ts file for [project], as the platform's CLI does: its folder is the project", async () => {
    const dir = await fresh('data');
    const source = join(dir, 'connector.ts');
    expect(await runCli(['build', source])).toMatchObject({ code: 0, stderr: '' });
    expect(existsSync(join(dir, 'out', 'connector.js'))).toBe(true);
    const info = await runCli(['info', source]);
    expect([info.code, JSON.parse(info.stdout).type]).toEqual([0, 'data']);
    const missing = await runCli(['info', join(dir, 'nothing.ts')]);
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringMatching(/nothing\.ts does not exist/)]);
  });

  test('says how to fix an -o path it cannot write (exit 2), for new, info and demo alike', async () => {
    const dir = await fresh('media');
    const file = join(dir, 'a-file');
    writeFileSync(file, 'in the way');
    const missing = join(dir, 'no', 'such', 'folder', 'out.json');
    for (const [args, reason] of [
      [['new', '--name', 'Blocked', '-o', file], 'a file of that name is in the way'],
      [['info', dir, '-o', missing], 'its folder does not exist'],
      [['demo', dir, '-o', missing], 'its folder does not exist'],
      [['info', dir, '-o', join(file, 'out.json')], 'a part of it is a file, not a folder'],
    ] as const) {
      const result = await runCli([...args]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`^error: cannot write .+: ${reason}`));
      expect(result.stderr).not.toContain('report it');
    }
  });

  test("prints the connector's runtime.logError messages on stderr: info and test as they come, stress the first 20 and a count", async () => {
    const dir = await fresh('media');
    writeFileSync(
      join(dir, 'connector.ts'),
      `export default class Says {
  constructor(private runtime: any) {}
  async query() {
    this.runtime.logError('query: the listing came back empty');
    return { pageSize: 0, data: [], links: { nextPage: '' } };
  }
  async detail() { return {}; }
  async download() {
    this.runtime.logError('download: no rendition, sent the original');
    return (await this.runtime.fetch('data:image/gif;base64,R0lGODlhAQABAAAAACw=', { method: 'GET' })).arrayBuffer;
  }
  getConfigurationOptions() { return []; }
  getCapabilities() {
    this.runtime.logError('capabilities: asked');
    return { query: true, detail: true, filtering: false, metadata: false };
  }
}
`,
    );
    const info = await runCli(['info', dir]);
    expect(info.code).toBe(0);
    expect(info.stderr).toBe('logError: capabilities: asked\n');
    expect(JSON.parse(info.stdout).capabilities).toMatchObject({ query: true });

    expect((await runCli(['demo', dir])).code).toBe(0);
    const tested = await runCli(['test', dir, '-t', join(dir, 'tests.generated.json')]);
    expect(tested).toMatchObject({
      code: 0,
      stderr: 'logError: query: the listing came back empty\n1 of 1 tests passed\n',
    });
    expect(tested.stdout.trim().split('\n')).toHaveLength(1);

    const stress = await runCli(['stress', dir, '-i', '30']);
    expect(stress.code).toBe(0);
    const lines = stress.stderr.trim().split('\n');
    // 31 calls (one before the 30 measured): 20 lines, then the count of the 11 others.
    expect(lines).toHaveLength(21);
    expect(lines[0]).toBe('logError: download: no rendition, sent the original');
    expect(lines[20]).toBe('logError: 11 more messages not shown');
  });

  test('demo stubs every fetch ({} with 200, nothing sent) and writes the file even when the query fails on the stubs', async () => {
    let received = 0;
    const upstream = (await import('node:http')).createServer((_req, res) => {
      received += 1;
      res.end('{"data":[]}');
    });
    upstream.listen(0, '127.0.0.1');
    await once(upstream, 'listening');
    try {
      const dir = await fresh('media');
      const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/items?page=1`;
      writeFileSync(
        join(dir, 'connector.ts'),
        `export default class Demo {
  constructor(private runtime: any) {}
  async query() {
    const answer = JSON.parse((await this.runtime.fetch(${JSON.stringify(url)}, { method: 'GET' })).text);
    if (!Array.isArray(answer.data)) throw new Error('no data in the answer');
    return { pageSize: 0, data: [], links: { nextPage: '' } };
  }
  async detail() { return {}; }
  async download() { return {}; }
  getConfigurationOptions() { return []; }
  getCapabilities() { return { query: true, detail: true, filtering: false, metadata: false }; }
}
`,
      );
      const demo = await runCli(['demo', dir]);
      expect(demo.code, demo.stderr).toBe(0);
      expect(demo.stderr).toMatch(/^note: with every fetch stubbed, query: .*no data in the answer/);
      expect(received).toBe(0);
      const written = JSON.parse(readFileSync(join(dir, 'tests.generated.json'), 'utf8'));
      expect(written.tests[0].asserts.fetch).toEqual([
        {
          url,
          method: 'GET',
          count: 1,
          response: { status: 200, headers: [['content-type', 'application/json']], body: {} },
        },
      ]);
    } finally {
      upstream.close();
    }
  });

  test('a connector that does not load is the connector failing: exit 1, not a usage error', async () => {
    const dir = await fresh('data');
    writeFileSync(
      join(dir, 'connector.ts'),
      "export default class Broken { constructor() { throw new Error('no configuration'); } }\n",
    );
    const info = await runCli(['info', dir]);
    expect(info.code).toBe(1);
    expect(info.stderr).toMatch(
      /^error: the connector does not load: .*no configuration.*; fix connector\.ts\n$/,
    );
  });

  test('debug on a port in use: a usage error that says to pass another -p', async () => {
    const dir = await fresh('data');
    const taken = createServer().listen(0, '127.0.0.1');
    await once(taken, 'listening');
    try {
      const port = (taken.address() as AddressInfo).port;
      const result = await runCli(['debug', dir, '-p', String(port)]);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `error: port ${port} of 127.0.0.1 is in use; pass another with -p, or -p 0 for any free port\n`,
      );
    } finally {
      taken.close();
    }
  });

  test('stress: download N times in one runtime, min/median/max and memory growth', async () => {
    const dir = await fresh('media');
    const result = await runCli(['--json', 'stress', dir, '-i', '25']);
    expect(result.code).toBe(0);
    const stats = JSON.parse(result.stdout);
    expect(stats.iterations).toBe(25);
    expect(stats.minMs).toBeLessThanOrEqual(stats.medianMs);
    expect(stats.medianMs).toBeLessThanOrEqual(stats.maxMs);
    expect(stats.rssGrowthBytes).toBeTypeOf('number');
    expect((await runCli(['stress', dir, '-i', 'many'])).stderr).toMatch(/^error: -i must be a whole number/);
  });

  test('stress on a connector whose download fails: exit 1, one line naming the runtime error', async () => {
    const dir = example('stand-in-media');
    const result = await runCli(['stress', dir, '-i', '3']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'error: download: CONNECTOR_HTTP_ERROR (status 400): the option baseUrl is not set; publish the connector with -ro baseUrl=<url>; fix connector.ts\n',
    );
  });
});

describe('connector-cli build', () => {
  test('a connector may import relative files and the SDK types only', async () => {
    const dir = await fresh('media');
    const source = join(dir, 'connector.ts');
    writeFileSync(join(dir, 'helper.ts'), 'export const greeting = "hi";\n');
    writeFileSync(
      source,
      `import { greeting } from './helper';\n${readFileSync(source, 'utf8')}\nexport const g = greeting;\n`,
    );
    expect((await runCli(['build', dir])).code).toBe(0);
    writeFileSync(
      source,
      `import leftPad from 'left-pad';\n${readFileSync(source, 'utf8')}\nexport const p = leftPad;\n`,
    );
    const refused = await runCli(['build', dir]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^error: .*connector\.ts:1:\d+: imports "left-pad": a connector may import only relative files/,
    );
  });

  test('inline type imports under verbatimModuleSyntax build to a module the runtime loads', async () => {
    const dir = await fresh('media');
    // The platform's own connectors are written this way (their URL connector, their `new` template's tsconfig).
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ESNext',
          module: 'ESNext',
          moduleResolution: 'bundler',
          verbatimModuleSyntax: true,
        },
      }),
    );
    const source = join(dir, 'connector.ts');
    writeFileSync(
      source,
      readFileSync(source, 'utf8').replace(
        /^import type \{ (.*) \} from '@chili-publish\/studio-connectors';$/m,
        (_line, names: string) =>
          `import { ${names
            .split(', ')
            .map((name) => `type ${name}`)
            .join(', ')} } from '@chili-publish/studio-connectors';`,
      ),
    );
    expect(readFileSync(source, 'utf8')).toMatch(/^import \{ type \w+, type \w+ \} from/m);
    const built = await runCli(['build', dir]);
    expect(built, built.stderr).toMatchObject({ code: 0, stderr: '' });
    const module = readFileSync(join(dir, 'out', 'connector.js'), 'utf8');
    expect(module).not.toMatch(/\bimport\b/);
    expect((await runCli(['info', dir])).code).toBe(0);
  });

  test("a module the server would refuse fails build with exit 1 and the server's reason, and is not written", async () => {
    const dir = await fresh('data');
    writeFileSync(join(dir, 'connector.ts'), 'export const notAClass = 42;\n');
    const refused = await runCli(['build', dir]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      'error: the built module cannot run on the platform (publish would answer 422 NO_DEFAULT_CLASS): the script has no default export that is a class; fix connector.ts\n',
    );
    expect(existsSync(join(dir, 'out', 'connector.js'))).toBe(false);
    // A constructor that throws is refused at publish too (SCRIPT_INVALID): the same here.
    writeFileSync(
      join(dir, 'connector.ts'),
      "export default class A { constructor() { throw new Error('no'); } }\n",
    );
    const thrown = await runCli(['build', dir]);
    expect(thrown.code).toBe(1);
    expect(thrown.stderr).toMatch(/^error: .*422 SCRIPT_INVALID\): the connector's constructor failed: .*no/);
  });

  test('an SDK name used as a value is a usage error naming it and its place', async () => {
    const dir = await fresh('data');
    writeFileSync(
      join(dir, 'connector.ts'),
      "import { Data } from '@chili-publish/studio-connectors';\nexport default Data;\n",
    );
    const refused = await runCli(['build', dir]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^error: .*connector\.ts:1:10: uses "Data" of @chili-publish\/studio-connectors as a value, but the SDK has types only; use it in types only; fix the connector source and run the command again\n$/,
    );
  });

  test('-w builds again when a .ts file changes, until stopped', async () => {
    const dir = await fresh('data');
    const child = startCli(['build', dir, '-w']);
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    const seen = async (count: number) => {
      for (let i = 0; i < 200 && (stdout.match(/^Built /gm) ?? []).length < count; i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      return (stdout.match(/^Built /gm) ?? []).length;
    };
    expect(await seen(1)).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const source = join(dir, 'connector.ts');
    writeFileSync(source, readFileSync(source, 'utf8').replace('First row', 'Changed row'));
    expect(await seen(2)).toBe(2);
    expect(readFileSync(join(dir, 'out', 'connector.js'), 'utf8')).toContain('Changed row');
    child.kill('SIGTERM');
    const [code] = await once(child, 'close');
    expect(code).toBe(0);
  });
});

describe('the connector sources type-check against the SDK on npm', () => {
  test('the example connectors', async () => {
    await expect(typecheck(EXAMPLES)).resolves.toBeDefined();
  });

  test.each(['media', 'data'] as const)('a %s project as new writes it', async (type) => {
    const dir = await fresh(type);
    mkdirSync(join(dir, 'node_modules', '@chili-publish'), { recursive: true });
    symlinkSync(SDK, join(dir, 'node_modules', '@chili-publish', 'studio-connectors'));
    await expect(typecheck(dir)).resolves.toBeDefined();
  });
});
