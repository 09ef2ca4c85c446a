import { join, resolve } from 'node:path';
import type { HostFetchRequest } from '@platform/runtime';
import type { Command } from 'commander';
import type { Context } from '../context.ts';
import { compileLocal, readLocalProject } from '../local/local-project.ts';
import { logErrorLines } from '../local/log-errors.ts';
import { callLocal, loadLocal } from '../local/sandbox.ts';
import { cannedResponse } from '../local/stub-fetch.ts';
import type { FetchAssert, TestFile } from '../local/test-file.ts';
import { writeOutput } from '../write-output.ts';
import type { RunAction } from './action.ts';

/** What every fetch of the demo answers: the platform CLI's stub, a 200 of `{}`. */
const stub = (): NonNullable<FetchAssert['response']> => ({
  status: 200,
  headers: [['content-type', 'application/json']],
  body: {},
});

/**
 * `demo [project] [-o file]`: one stubbed query (media) or first page (data), as the platform CLI runs it: no request
 * leaves the machine, every fetch is answered `{}` (200) and recorded once with that answer, and the test file is
 * written whatever the connector made of the stubs (a query that failed on them is said on stderr). Replace the
 * stubbed answers with real ones, then `test -t` replays them.
 */
export const demoTests = async (ctx: Context, dir: string | undefined, options: { out?: string }) => {
  const local = await readLocalProject(dir);
  const fetches: FetchAssert[] = [];
  const record = async (request: HostFetchRequest) => {
    const assert = { url: request.url, method: request.method, count: 1, response: stub() };
    const same = fetches.find((f) => f.url === assert.url && f.method === assert.method);
    if (same) same.count += 1;
    else fetches.push(assert);
    return cannedResponse(request.url, assert.response);
  };
  const logs = logErrorLines(ctx.out);
  const sandbox = await loadLocal(await compileLocal(local), local.options, record, {
    onLogError: logs.onLogError,
  });
  const data = local.type === 'data';
  const method = data ? 'getPage' : 'query';
  const args = data
    ? { config: { limit: 10 }, context: {} }
    : {
        options: {
          filter: null,
          collection: null,
          pageToken: null,
          pageSize: 10,
          sortBy: null,
          sortOrder: null,
        },
        context: {},
      };
  let failed: string | undefined;
  try {
    await callLocal(sandbox, method, Object.values(args));
  } catch (error) {
    failed = error instanceof Error ? error.message : String(error);
  } finally {
    sandbox.dispose();
    logs.done();
  }
  const file: TestFile = {
    setup: { runtime_options: local.options },
    tests: [
      {
        id: `${method}-1`,
        name: `${method} answers the first page`,
        method,
        arguments: args,
        asserts: { fetch: fetches },
      },
    ],
  };
  const out = resolve(options.out ?? join(local.project.dir, 'tests.generated.json'));
  await writeOutput(out, `${JSON.stringify(file, null, 2)}\n`);
  if (failed !== undefined) ctx.out.note(`note: with every fetch stubbed, ${failed}`);
  ctx.out.result(
    `Wrote ${out}: 1 test, ${fetches.length} fetch assert(s) answered {}; put real answers in them, then run connector-cli test -t ${out}`,
    { out, fetches: fetches.length, ...(failed !== undefined ? { queryFailed: failed } : {}) },
  );
};

export const registerDemo = (program: Command, run: RunAction) =>
  program
    .command('demo')
    .summary('write tests.generated.json from one stubbed query')
    .description(
      'Run query (a data connector: getPage) once with every fetch stubbed (200, {}), nothing sent, and write its fetches as a test file for connector-cli test.',
    )
    .argument('[project]', 'the connector project directory (default .)')
    .option('-o, --out <file>', 'where to write the test file (default <project>/tests.generated.json)')
    .addHelpText('after', '\nExamples:\n  connector-cli demo && connector-cli test -t tests.generated.json')
    .action((dir: string | undefined, options: { out?: string }) =>
      run((ctx) => demoTests(ctx, dir, options)),
    );
