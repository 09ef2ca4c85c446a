import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { HostFetchRequest, HostFetchResponse } from '@platform/runtime';
import type { Command } from 'commander';
import type { Context } from '../context.ts';
import { compileLocal, readLocalProject } from '../local/local-project.ts';
import { relayFetch } from '../local/relay-fetch.ts';
import { callLocal, loadLocal } from '../local/sandbox.ts';
import { cannedResponse } from '../local/stub-fetch.ts';
import type { FetchAssert, TestFile } from '../local/test-file.ts';
import type { RunAction } from './action.ts';

const decoder = new TextDecoder();

/** A recorded response as an assert's `response`: JSON bodies as JSON, text as text, binary bodies as a placeholder. */
const recorded = (response: HostFetchResponse): NonNullable<FetchAssert['response']> => {
  const contentType = response.headers['content-type'] ?? '';
  const text = decoder.decode(response.body);
  let body: unknown = text;
  if (/json/i.test(contentType)) {
    try {
      body = JSON.parse(text);
    } catch {}
  } else if (!/^text\/|xml/i.test(contentType)) {
    body = `<${response.body.length} bytes of ${contentType || 'unknown type'}>`;
  }
  return { status: response.status, headers: contentType ? [['content-type', contentType]] : [], body };
};

/** An answer for a fetch that could not be made: the test still describes the call, with a 200 of `{}`. */
const stub = (): NonNullable<FetchAssert['response']> => ({
  status: 200,
  headers: [['content-type', 'application/json']],
  body: {},
});

/**
 * `demo [project] [-o file]`: one query (media) or first page (data), each of its fetches made once and recorded
 * (stubbed with `{}` when it fails), written as a test file that `test -t` replays without the network.
 */
export const demoTests = async (ctx: Context, dir: string | undefined, options: { out?: string }) => {
  const local = await readLocalProject(dir);
  const fetches: FetchAssert[] = [];
  const record = async (request: HostFetchRequest, signal: AbortSignal) => {
    let response: HostFetchResponse | undefined;
    try {
      response = await relayFetch(request, signal);
    } catch {}
    const assert = {
      url: request.url,
      method: request.method,
      count: 1,
      response: response ? recorded(response) : stub(),
    };
    const same = fetches.find((f) => f.url === assert.url && f.method === assert.method);
    if (same) same.count += 1;
    else fetches.push(assert);
    return response ?? cannedResponse(request.url, assert.response);
  };
  const sandbox = await loadLocal(await compileLocal(local), local.options, record);
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
  try {
    await callLocal(sandbox, method, Object.values(args));
  } finally {
    sandbox.dispose();
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
  await writeFile(out, `${JSON.stringify(file, null, 2)}\n`);
  ctx.out.result(
    `Wrote ${out}: 1 test, ${fetches.length} fetch assert(s); run connector-cli test -t ${out}`,
    {
      out,
      fetches: fetches.length,
    },
  );
};

export const registerDemo = (program: Command, run: RunAction) =>
  program
    .command('demo')
    .summary('write tests.generated.json from one stubbed query')
    .description(
      'Run query (a data connector: getPage) once, record each fetch and its answer (stubbed when it fails), and write them as a test file for connector-cli test.',
    )
    .argument('[project]', 'the connector project directory (default .)')
    .option('-o, --out <file>', 'where to write the test file (default <project>/tests.generated.json)')
    .addHelpText('after', '\nExamples:\n  connector-cli demo && connector-cli test -t tests.generated.json')
    .action((dir: string | undefined, options: { out?: string }) =>
      run((ctx) => demoTests(ctx, dir, options)),
    );
