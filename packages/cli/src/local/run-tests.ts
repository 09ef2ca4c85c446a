import type { ConnectorMethod, HostFetch } from '@platform/runtime';
import { relayFetch } from './relay-fetch.ts';
import { connectorFailure, loadLocal } from './sandbox.ts';
import { stubbedFetch } from './stub-fetch.ts';
import type { TestCase, TestFile } from './test-file.ts';
import { uploadFilesOf } from './upload-files.ts';

export type TestOutcome = { id: string | undefined; name: string; passed: boolean; reasons: string[] };

/** The platform CLI's shape check of a query result: a page with `data` and `pageSize`, each media with its keys. */
const queryProblems = (value: unknown): string[] => {
  const page = value as { data?: unknown; pageSize?: unknown } | null;
  if (!page || !Array.isArray(page.data)) return ["query result has no 'data' array"];
  if (page.pageSize === undefined) return ["query result has no 'pageSize'"];
  const keys = ['id', 'name', 'relativePath', 'type'] as const;
  for (const [i, media] of (page.data as Record<string, unknown>[]).entries()) {
    const missing = keys.find((key) => media?.[key] === undefined);
    if (missing) return [`query result data[${i}] has no '${missing}'`];
  }
  return [];
};

/**
 * Runs every test of the file in one sandbox (one runtime, as the platform runs a connector): the module with
 * `config.options` and `setup.runtime_options` over them, each test's arguments in their order, its fetches stubbed.
 * An `upload` test's first argument lists files (read from `testFileDir` when given by path).
 */
export const runTests = async (
  script: string,
  options: Record<string, unknown>,
  file: TestFile,
  testFileDir: string,
  onLogError?: (message: string) => void,
): Promise<TestOutcome[]> => {
  let current: HostFetch = relayFetch;
  const sandbox = await loadLocal(
    script,
    { ...options, ...file.setup.runtime_options },
    (request, signal) => current(request, signal),
    { onLogError },
  );
  const outcomes: TestOutcome[] = [];
  try {
    for (const test of file.tests) outcomes.push(await runOne(test));
  } finally {
    sandbox.dispose();
  }
  return outcomes;

  async function runOne(test: TestCase): Promise<TestOutcome> {
    const stub = stubbedFetch(test.asserts.fetch, relayFetch);
    current = stub.fetch;
    const reasons: string[] = [];
    const args = Object.values(test.arguments);
    if (test.method === 'upload') {
      const read = await uploadFilesOf(args[0], testFileDir);
      if ('reason' in read) return { id: test.id, name: test.name, passed: false, reasons: [read.reason] };
      args[0] = read.files;
    }
    try {
      const result = await sandbox.call(test.method as ConnectorMethod, args);
      if (test.method === 'query' && result.kind === 'json') reasons.push(...queryProblems(result.value));
    } catch (error) {
      reasons.push(connectorFailure(test.method, error).message.replace(/; fix connector.ts$/, ''));
    }
    reasons.unshift(...stub.failures());
    return { id: test.id, name: test.name, passed: reasons.length === 0, reasons };
  }
};
