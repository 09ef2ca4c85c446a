/**
 * Files handed to `upload` (the SDK's `MediaConnectorUpload`): their bytes stay on the host, held by the invocation
 * they were handed to and counted against its session's memory until it ends, and the connector gets a
 * `FilePointer {id, url, name}` for each. A pointer is good for that invocation only: as a fetch body, as a file part
 * of a `StudioFormData`, or fetched by its `url`.
 */
import type { HostMemory } from './host-memory.ts';
import type { HostFetchResponse, UploadFile } from './types.ts';

export type FilePointer = { id: string; url: string; name: string };

/** The files of one invocation, by pointer id. */
export type HeldFiles = Map<string, UploadFile>;

/** A scheme no proxy serves: a pointer's `url` is answered by the runtime itself, as a `data:` URL is. */
const URL_PREFIX = 'blob:connector-file/';

/**
 * Keeps `files` for the invocation `owner` and returns their pointers, in order; ids are unguessable. Their bytes are
 * charged to the session's `memory` (released when the invocation ends): MEMORY_LIMIT, and nothing kept, when they
 * do not fit.
 */
export const handOver = (
  held: HeldFiles,
  files: unknown,
  memory: HostMemory,
  owner: object,
): FilePointer[] => {
  if (!Array.isArray(files))
    throw new TypeError('upload takes an array of files ({name, contentType, bytes})');
  for (const file of files as UploadFile[]) {
    if (typeof file?.name !== 'string' || !(file.bytes instanceof Uint8Array)) {
      throw new TypeError('each file handed to upload is {name, contentType, bytes: Uint8Array}');
    }
  }
  memory.charge(
    owner,
    files.reduce((sum: number, file: UploadFile) => sum + file.bytes.byteLength, 0),
  );
  return files.map((file: UploadFile) => {
    const id = crypto.randomUUID();
    held.set(id, {
      name: file.name,
      contentType: file.contentType || 'application/octet-stream',
      bytes: file.bytes,
    });
    return { id, url: `${URL_PREFIX}${id}`, name: file.name };
  });
};

/** The file a pointer id names; a TypeError (the connector's own mistake, which it may catch) for any other id. */
export const heldFile = (held: HeldFiles, id: string): UploadFile => {
  const file = held.get(id);
  if (file === undefined) {
    throw new TypeError('the FilePointer is not one of the files handed to this call');
  }
  return file;
};

export const isFileUrl = (url: string): boolean => url.startsWith(URL_PREFIX);

/** `fetch(pointer.url)`: the file's bytes with its content type, without leaving the runtime. */
export const fileResponse = (held: HeldFiles, url: string): HostFetchResponse => {
  const file = heldFile(held, url.slice(URL_PREFIX.length));
  return {
    status: 200,
    statusText: 'OK',
    url,
    redirected: false,
    headers: { 'content-type': file.contentType },
    body: file.bytes,
  };
};
