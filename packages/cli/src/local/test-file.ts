import { readFile } from 'node:fs/promises';
import { formatPath } from '@platform/core';
import { z } from 'zod';
import { UsageError } from '../errors.ts';

/**
 * A response's headers: `[[name, value]]` as the format gives them, or `{name: value}` as test files written for the
 * platform's CLI often do (it reads either); always pairs once read.
 */
const Headers = z
  .union([z.array(z.tuple([z.string(), z.string()])), z.record(z.string(), z.string())])
  .transform((headers) => (Array.isArray(headers) ? headers : Object.entries(headers)));

/** The platform CLI's test-file format (docs/connector-cli.md, "test"); fields it does not know are ignored. */
const FetchAssert = z.object({
  url: z.string().min(1),
  method: z.string().min(1),
  count: z.number().int().min(0),
  response: z
    .object({
      status: z.number().int().min(200).max(599),
      headers: Headers.default([]),
      body: z.unknown(),
    })
    .optional(),
});
export type FetchAssert = z.infer<typeof FetchAssert>;

const Test = z.object({
  /** Optional, as in the platform CLI's own files: a test without one is named by its `name`. */
  id: z.string().optional(),
  name: z.string(),
  method: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()).default({}),
  asserts: z.object({ fetch: z.array(FetchAssert).default([]) }).default({ fetch: [] }),
});
export type TestCase = z.infer<typeof Test>;

export const TestFile = z.object({
  setup: z
    .object({ runtime_options: z.record(z.string(), z.unknown()).default({}) })
    .default({ runtime_options: {} }),
  tests: z.array(Test),
});
export type TestFile = z.infer<typeof TestFile>;

export const readTestFile = async (file: string): Promise<TestFile> => {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : 'is not valid JSON';
    throw new UsageError(`the test file ${file} ${reason}; pass a test file with -t`);
  }
  const parsed = TestFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(
      `${file}: ${formatPath(issue?.path ?? []) || 'the file'} ${issue?.message ?? 'is invalid'}; fix the test file`,
    );
  }
  return parsed.data;
};
