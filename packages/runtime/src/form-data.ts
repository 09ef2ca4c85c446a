/**
 * A `runtime.fetch` body as the sandbox describes it (prelude.ts), made into the bytes the port sends: a string as it
 * is, a `FilePointer` as its file's bytes with the file's content type, a `StudioFormData` as `multipart/form-data`
 * built by the Web platform's own `FormData` and `Response` (the boundary and the part headers are theirs).
 */
import { type HeldFiles, heldFile } from './file-pointers.ts';

export type FormEntry = { name: string; value: string } | { name: string; file: string; filename?: string };

export type SandboxBody =
  | { kind: 'text'; text: string }
  | { kind: 'file'; id: string }
  | { kind: 'form'; entries: FormEntry[] };

export type EncodedBody = {
  body: string | Uint8Array | undefined;
  /** The type the body carries: a file's own, the multipart's with its boundary; none for text. */
  contentType: string | undefined;
};

export const encodeBody = async (body: SandboxBody | null, held: HeldFiles): Promise<EncodedBody> => {
  if (body === null) return { body: undefined, contentType: undefined };
  switch (body.kind) {
    case 'text':
      return { body: body.text, contentType: undefined };
    case 'file': {
      const file = heldFile(held, body.id);
      return { body: file.bytes, contentType: file.contentType };
    }
    case 'form':
      return multipart(body.entries, held);
  }
};

const multipart = async (entries: readonly FormEntry[], held: HeldFiles): Promise<EncodedBody> => {
  const form = new FormData();
  for (const entry of entries) {
    if ('value' in entry) {
      form.append(entry.name, entry.value);
      continue;
    }
    const file = heldFile(held, entry.file);
    // The host's own bytes (never shared memory); the Blob copies them.
    const part = new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.contentType });
    form.append(entry.name, part, entry.filename ?? file.name);
  }
  const response = new Response(form);
  return {
    body: new Uint8Array(await response.arrayBuffer()),
    contentType: response.headers.get('content-type') ?? undefined,
  };
};
