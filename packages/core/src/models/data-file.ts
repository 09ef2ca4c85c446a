import { z } from 'zod';
import type { FieldErrors } from '../errors.ts';
import { type DescribeUnknownKey, fieldErrors, formatPath } from '../validation.ts';
import { AuditEntry } from './audit.ts';
import { closestKey } from './closest-key.ts';
import {
  EnvironmentRole,
  EnvironmentType,
  LicenseType,
  SubscriptionMembershipType,
  SubscriptionRole,
  SubscriptionStatus,
  SubscriptionType,
  UserStatus,
} from './enums.ts';
import { int32, int64, nonEmpty, uri, uuid } from './scalars.ts';
import { UserId } from './users.ts';

/**
 * The data file of docs/data-file.md (`platform-server import`, `platform-server export`, demo data).
 * Every object is strict: a misspelt key would otherwise be dropped and its field silently take its default.
 * Omitted optional fields take the defaults below.
 */
const count = () => int64().min(0);
/** A calendar date as `yyyy-MM-dd` (a real one: `2025-02-30` is refused). */
const day = () => z.iso.date({ error: 'must be a calendar date as yyyy-MM-dd' });

export const DataFileUser = z
  .strictObject({
    id: UserId,
    email: nonEmpty(),
    firstName: z.string().nullable().default(null),
    lastName: z.string().nullable().default(null),
    avatar: z.string().nullable().default(null),
    lastSeen: int64().nullable().default(null),
    status: UserStatus.default('Active'),
  })
  .meta({ id: 'DataFileUser' });
export type DataFileUser = z.infer<typeof DataFileUser>;

export const DataFileStorage = z
  .strictObject({
    assets: count().default(0),
    documents: count().default(0),
    fonts: count().default(0),
    cache: count().default(0),
    backup: count().default(0),
    other: count().default(0),
  })
  .meta({ id: 'DataFileStorage' });

export const DataFileEnvironment = z
  .strictObject({
    id: int32(),
    guid: uuid(),
    name: nonEmpty(),
    technicalName: z
      .string()
      .regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/, 'a host label: letters, digits and hyphens')
      .nullable()
      .default(null),
    defaultName: z.string().nullable().default(null),
    type: EnvironmentType,
    region: z.string().nullable().default(null),
    tenantName: z.string().nullable().default(null),
    backOfficeUri: uri().nullable().default(null),
    disableCpoToPlatformRedirect: z.boolean().default(false),
    storage: DataFileStorage.default({ assets: 0, documents: 0, fonts: 0, cache: 0, backup: 0, other: 0 }),
  })
  .meta({ id: 'DataFileEnvironment' });
export type DataFileEnvironment = z.infer<typeof DataFileEnvironment>;

export const DataFileLicense = z
  .strictObject({
    id: nonEmpty(),
    coresTotal: int32().nullable().default(null),
    coresUsed: int32().default(0),
    url: uri().nullable().default(null),
    licenseType: LicenseType.nullable().default(null),
  })
  .meta({ id: 'DataFileLicense' });

export const DataFileMember = z
  .strictObject({
    userId: UserId,
    subscriptionRoles: z.array(SubscriptionRole).default([]),
    environmentRoles: z.record(uuid(), z.array(EnvironmentRole)).default({}),
    membershipType: SubscriptionMembershipType.default('Invitation'),
  })
  .meta({ id: 'DataFileMember' });
export type DataFileMember = z.infer<typeof DataFileMember>;

export const DataFileSubscription = z
  .strictObject({
    id: int32(),
    guid: uuid(),
    name: nonEmpty(),
    displayName: nonEmpty().optional(),
    clientId: uuid(),
    clientName: z.string().nullable().default(null),
    status: SubscriptionStatus.default('Active'),
    subscriptionType: SubscriptionType,
    isPlatformPricebook: z.boolean().default(false),
    pricebookVersion: nonEmpty(),
    isWhitelabeled: z.boolean().default(false),
    subscriptionTier: nonEmpty(),
    maxTemplates: int32().default(0),
    maxRenders: int64().nullable().default(null),
    maxStorage: int64().nullable().default(null),
    averageRendersPeriodDays: int32().min(1).max(3660).default(30),
    startDate: day().nullable().default(null),
    endDate: day().nullable().default(null),
    billingClientContact: z.string().nullable().default(null),
    templateDesignerSeatsTotal: int32().nullable().default(null),
    overdueInvoices: z.boolean().default(false),
    isPublisherEnabled: z.boolean().default(false),
    isStudioEnabled: z.boolean().default(false),
    isExperienceEnabled: z.boolean().nullable().default(null),
    maxSpaces: int32().nullable().default(null),
    experienceExtensions: z
      .strictObject({ isPartnerEnabled: z.boolean().nullable().default(null) })
      .default({ isPartnerEnabled: null }),
    sandboxEnvironmentsTotal: int64().nullable().default(null),
    productionEnvironmentsTotal: int64().nullable().default(null),
    externalIdpDomains: z.array(z.string()).default([]),
    licenses: z.array(DataFileLicense).nullable().default(null),
    environments: z.array(DataFileEnvironment).default([]),
    members: z.array(DataFileMember).default([]),
  })
  .meta({ id: 'DataFileSubscription' });
export type DataFileSubscription = z.infer<typeof DataFileSubscription>;

/** One render event (docs/data-file.md); also the body element of `POST /api/v1/render-events`. */
export const RenderEvent = z
  .strictObject({
    environmentGuid: uuid(),
    kind: nonEmpty().max(64),
    watermarked: z.boolean().default(false),
    at: z.iso.datetime({ offset: true }),
    count: int32().min(1).default(1),
  })
  .meta({ id: 'RenderEvent' });
export type RenderEvent = z.infer<typeof RenderEvent>;

export const MAX_RENDER_EVENTS_PER_REQUEST = 10_000;
export const RenderEventBatch = z
  .array(RenderEvent)
  .max(MAX_RENDER_EVENTS_PER_REQUEST)
  .meta({ id: 'RenderEventBatch' });

export const DataFile = z
  .strictObject({
    users: z.array(DataFileUser).default([]),
    subscriptions: z.array(DataFileSubscription).default([]),
    renderEvents: z.array(RenderEvent).default([]),
    /** The audit trail (docs/audit.md): an import adds the entries it does not hold yet, by id. */
    auditEntries: z.array(AuditEntry).default([]),
  })
  .meta({ id: 'DataFile' });
export type DataFile = z.infer<typeof DataFile>;

/** The object schema a path of the file leads to, through lists, records, defaults and nulls. */
const schemaAt = (path: readonly PropertyKey[]): z.ZodType | undefined => {
  let schema: z.ZodType | undefined = DataFile;
  const unwrap = () => {
    for (;;) {
      const def: { type: string } | undefined = schema?._zod.def;
      if (def?.type === 'default' || def?.type === 'nullable' || def?.type === 'optional')
        schema = (def as unknown as { innerType: z.ZodType }).innerType;
      else return;
    }
  };
  for (const key of path) {
    unwrap();
    const def: { type: string } | undefined = schema?._zod.def;
    if (def?.type === 'array') schema = (def as unknown as { element: z.ZodType }).element;
    else if (def?.type === 'record') schema = (def as unknown as { valueType: z.ZodType }).valueType;
    else if (schema instanceof z.ZodObject) schema = schema.shape[String(key)] as z.ZodType | undefined;
    else return undefined;
  }
  unwrap();
  return schema;
};

const describeUnknownKey = (path: readonly PropertyKey[], key: string): string => {
  const schema = schemaAt(path);
  const known = schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
  const near = closestKey(key, known);
  const where = path.length === 0 ? 'the file' : formatPath(path);
  return near === undefined
    ? `unknown key (${where} has ${known.join(', ')})`
    : `unknown key; did you mean ${near}?`;
};

/**
 * An unknown key of a render event sent to `POST /api/v1/render-events`, named with the closest known key as the
 * data file names them (the same events, the same mistakes).
 */
export const describeUnknownRenderEventKey: DescribeUnknownKey = (_path, key) => {
  const near = closestKey(key, Object.keys(RenderEvent.shape));
  return near === undefined ? 'unknown field' : `unknown field; did you mean ${near}?`;
};

/**
 * Where `path` lies in `input`: the position of each of its keys among their siblings, as the file has them (JSON
 * keeps its keys in order), and each index. A key the input lacks (a required field left out) comes after its siblings.
 */
const placeIn = (input: unknown, path: readonly PropertyKey[]): number[] => {
  const place: number[] = [];
  let at: unknown = input;
  for (const key of path) {
    if (Array.isArray(at) && typeof key === 'number') {
      place.push(key);
      at = at[key];
    } else if (at !== null && typeof at === 'object') {
      const keys = Object.keys(at);
      const i = keys.indexOf(String(key));
      place.push(i < 0 ? keys.length : i);
      at = i < 0 ? undefined : (at as Record<string, unknown>)[keys[i] as string];
    } else {
      place.push(0);
      at = undefined;
    }
  }
  return place;
};

const earlier = (a: readonly number[], b: readonly number[]): number => {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return (a[i] ?? 0) - (b[i] ?? 0);
  return a.length - b.length;
};

/**
 * Every problem of a data file that failed to parse, keyed by path in the order of the file (`input`), so that the
 * first named is the file's first bad path whatever the schema checked first; unknown keys name the closest known key.
 */
export const dataFileErrors = (error: z.ZodError, input?: unknown): FieldErrors => {
  if (input !== undefined) {
    const placed = error.issues.map((issue) => ({
      issue,
      place: placeIn(
        input,
        issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0] ?? ''] : issue.path,
      ),
    }));
    placed.sort((a, b) => earlier(a.place, b.place));
    error.issues.splice(0, error.issues.length, ...placed.map((p) => p.issue));
  }
  return fieldErrors(error, '', describeUnknownKey);
};
