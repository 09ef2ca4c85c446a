import { isWellFormedText, uuid, ValidationError } from '@platform/core';
import type { TemplateCursor } from '@platform/store';
import { z } from 'zod';

/**
 * `nextPageToken` is opaque to clients: the name and id of the last template of the previous page, so a page
 * holds even while templates are added or removed before it.
 */
/** A token is decoded from base64 by the server, so U+0000 or a lone surrogate inside it is no other check's to see. */
const Cursor = z.tuple([z.string().refine(isWellFormedText), uuid()]);

export const encodePageToken = (cursor: TemplateCursor): string =>
  Buffer.from(JSON.stringify([cursor.name, cursor.id])).toString('base64url');

export const decodePageToken = (token: string): TemplateCursor => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const cursor = Cursor.safeParse(parsed);
  if (!cursor.success) {
    throw new ValidationError(
      'nextPageToken is not a token this API issued; pass links.nextPage of the previous page as it is.',
      { nextPageToken: ['not a page token of this API'] },
    );
  }
  const [name, id] = cursor.data;
  return { name, id: id.toLowerCase() };
};
