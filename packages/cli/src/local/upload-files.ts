import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { formatPath } from '@platform/core';
import type { UploadFile } from '@platform/runtime';
import { z } from 'zod';

/**
 * A file of an `upload` test (docs/connector-cli.md, "test"): its name, its type, and its bytes from one of `path`
 * (relative to the test file), `text` (UTF-8) or `base64`.
 */
const FileSpec = z
  .object({
    name: z.string().min(1),
    contentType: z.string().min(1).default('application/octet-stream'),
    path: z.string().min(1).optional(),
    text: z.string().optional(),
    base64: z.base64().optional(),
  })
  .refine(
    (file) => [file.path, file.text, file.base64].filter((source) => source !== undefined).length === 1,
    'give exactly one of path, text or base64',
  );

const FileSpecs = z.array(FileSpec);

/**
 * The first argument of an `upload` test, made into the files the runtime hands the connector as FilePointers; a
 * reason (one line) when the test file describes them wrongly or a path does not read.
 */
export const uploadFilesOf = async (
  value: unknown,
  testFileDir: string,
): Promise<{ files: UploadFile[] } | { reason: string }> => {
  const parsed = FileSpecs.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = formatPath(['files', ...(issue?.path ?? [])]);
    return { reason: `arguments.${at}: ${issue?.message ?? 'invalid'}; fix the test file` };
  }
  const files: UploadFile[] = [];
  for (const spec of parsed.data) {
    let bytes: Uint8Array;
    if (spec.path !== undefined) {
      try {
        bytes = new Uint8Array(await readFile(resolve(testFileDir, spec.path)));
      } catch {
        return {
          reason: `the file ${spec.path} of '${spec.name}' does not read; fix its path in the test file`,
        };
      }
    } else if (spec.text !== undefined) bytes = new TextEncoder().encode(spec.text);
    else bytes = new Uint8Array(Buffer.from(spec.base64 ?? '', 'base64'));
    files.push({ name: spec.name, contentType: spec.contentType, bytes });
  }
  return { files };
};
