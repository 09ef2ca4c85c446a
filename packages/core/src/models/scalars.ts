import { z } from 'zod';

/** Shared field types of docs/admin-api.md conventions. */
export const int32 = () => z.int32();
export const int64 = () => z.int().meta({ format: 'int64' });
/** Any 8-4-4-4-12 hex GUID: platforms hand out GUIDs that are not all RFC 9562 versions. */
export const uuid = () => z.guid();
const GUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** What `uuid()` accepts, as a precompiled check: path parameters are checked on every request. */
export const isGuid = (value: unknown): value is string =>
  typeof value === 'string' && GUID_PATTERN.test(value);
export const uri = () => z.url();
export const dateTime = () => z.iso.datetime();
export const nonEmpty = () => z.string().min(1);
export const nullableString = () => z.string().nullable().optional();
