import { uuid, ValidationError } from '@platform/core';
import type { AuditCursor } from '@platform/store';
import { z } from 'zod';

/** `nextPageToken` is opaque to clients: the time and id of the last entry of the previous page. */
const Cursor = z.tuple([z.iso.datetime({ offset: true }), uuid()]);

export const encodeAuditPageToken = (cursor: AuditCursor): string =>
  Buffer.from(JSON.stringify([cursor.at.toISOString(), cursor.id])).toString('base64url');

const cursorOf = (token: string) => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  return Cursor.safeParse(parsed);
};

/** Whether `token` is one this API issued: the query's check, so that it is named beside the other bad parameters. */
export const isAuditPageToken = (token: string): boolean => cursorOf(token).success;

export const decodeAuditPageToken = (token: string): AuditCursor => {
  const cursor = cursorOf(token);
  if (!cursor.success) {
    throw new ValidationError(
      'nextPageToken is not a token this API issued; pass links.nextPage of the previous page as it is.',
      { nextPageToken: ['not a page token of this API'] },
    );
  }
  const [at, id] = cursor.data;
  return { at: new Date(at), id: id.toLowerCase() };
};
