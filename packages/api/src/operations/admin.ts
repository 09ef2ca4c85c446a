import {
  BasicEnvironmentModel,
  BasicSubscriptionModel,
  DataFile,
  describeUnknownRenderEventKey,
  EnvironmentModel,
  EnvironmentRenderModel,
  InfoResponse,
  RenderEventBatch,
  SubscriptionModel,
  SubscriptionRendersModel,
  SubscriptionUserModel,
  UserId,
  UserModel,
  uuid,
} from '@platform/core';
import { z } from 'zod';
import { getEnvironment } from '../services/environments/get.ts';
import { listEnvironments } from '../services/environments/list.ts';
import { getEnvironmentRenders } from '../services/environments/renders.ts';
import { getIdpDomains } from '../services/idp-domains/get.ts';
import { setIdpDomains } from '../services/idp-domains/set.ts';
import { createImport } from '../services/imports/create.ts';
import { getInfo } from '../services/info/get.ts';
import { ping } from '../services/info/ping.ts';
import { ready } from '../services/info/ready.ts';
import { ingestRenderEvents } from '../services/render-events/ingest.ts';
import { getSubscription } from '../services/subscriptions/get.ts';
import { listSubscriptions } from '../services/subscriptions/list.ts';
import { getSubscriptionRenders } from '../services/subscriptions/renders.ts';
import { getSubscriptionUser } from '../services/users/get.ts';
import { listSubscriptionUsers } from '../services/users/list.ts';
import { checkedByService, GIVEN_ONCE, singleQueryValue } from './input.ts';
import { defineOperation } from './operation.ts';

const ImportSummary = z
  .strictObject({
    users: z.int32(),
    subscriptions: z.int32(),
    environments: z.int32(),
    newEnvironments: z.int32().describe('Environments that did not exist before.'),
    members: z.int32(),
    renderEvents: z.int32(),
    auditEntries: z.int32().describe('Audit entries added (those already held are left as they are).'),
  })
  .meta({ id: 'ImportSummary' });

const subscriptionParams = z.object({ subscriptionId: uuid() });
const environmentParams = z.object({ environmentId: uuid() });
const optionalQuery = (description: string) => singleQueryValue().optional().describe(description);

/**
 * A render query parameter, typed for clients (tRPC infers `groupBy: 'year' | 'month'` and `top: number`; the
 * document states the exact JSON Schema) yet passed through unjudged but for repetition: the render services check
 * the query after visibility, so a bad query on a subscription the caller cannot see is still 404, and REST's
 * strings and tRPC's numbers meet the same checks and the same 400 naming the allowed values.
 */
const renderParameter = <T>(schema: Record<string, unknown>, description: string) =>
  z
    .custom<T>((value) => !Array.isArray(value), { error: GIVEN_ONCE })
    .transform((value): unknown => value)
    .meta(schema)
    .describe(description)
    .optional();

/**
 * `groupBy` is required, but its absence too is judged by the service, after visibility: the schema lets it
 * through while its type (for clients) and the document (`required: true`) say it is required.
 */
const requiredRenderParameter = <T>(schema: Record<string, unknown>, description: string) => {
  const parameter = renderParameter<T>(schema, description);
  checkedByService.add(parameter);
  return parameter as unknown as z.ZodType<unknown, T>;
};

const renderQuery = z.object({
  groupBy: requiredRenderParameter<'year' | 'month'>(
    { type: 'string', enum: ['year', 'month'] },
    '`year`: one group per month over the current month and the 11 before it; `month`: one group per day over the 30 days ending today (UTC). Case-sensitive.',
  ),
  startDate: renderParameter<string>(
    { type: 'string', format: 'date' },
    'yyyy-MM-dd; with endDate, replaces the default range (both inclusive).',
  ),
  endDate: renderParameter<string>(
    { type: 'string', format: 'date' },
    'yyyy-MM-dd; required when startDate is given.',
  ),
});

/** Sections 4.1 and 4.2 of the specification, plus the additions of docs/admin-api.md, docs/data-file.md. */
export const adminOperations = [
  defineOperation({
    id: 'info.get',
    method: 'GET',
    path: '/api/v1/info',
    summary: 'Service information: the current server version',
    description: 'Answers the version of the running server in `data.serverVersion`. Needs no token.',
    tag: 'Service',
    access: 'public',
    response: InfoResponse,
    status: 200,
    errors: [],
    service: getInfo,
  }),
  defineOperation({
    id: 'info.ping',
    method: 'GET',
    path: '/api/ping',
    summary: 'Liveness: 200 without a body while the server answers',
    description:
      'Answers 200 without a body whenever the server process answers, without touching the database (a liveness probe: a frozen database does not slow it). Whether requests can be served is `GET /api/ready`. Needs no token.',
    tag: 'Service',
    access: 'public',
    status: 200,
    errors: [],
    service: ping,
  }),
  defineOperation({
    id: 'info.ready',
    method: 'GET',
    path: '/api/ready',
    summary: 'Readiness: 200 without a body while the server can serve requests',
    description:
      'Answers 200 without a body while the database answers and the server is not shutting down, else a 503 ProblemDetails with `Retry-After`: a load balancer sends traffic elsewhere meanwhile. It reads what the database probe last saw (every second), so it answers at once even while the database is frozen. Needs no token.',
    tag: 'Service',
    access: 'public',
    status: 200,
    errors: [503],
    service: ready,
  }),
  defineOperation({
    id: 'environments.list',
    method: 'GET',
    path: '/api/v1/environments',
    summary: 'Environments visible to the caller, optionally of one subscription and matching a name',
    description:
      'Every environment the caller can see: those of subscriptions where the caller holds a subscription role, and those where the caller holds an environment role. `subscriptionId` narrows the list to one subscription (404 when the caller cannot see it); `environmentName` keeps the environments whose name or technical name contains it, ignoring case. Ordered by type (Production, Sandbox, Development), then by name.',
    tag: 'Environments',
    access: 'platform:read',
    query: z.object({
      // Documented as a uuid; a value that is not one is judged by the service (404, as a subscription not seen).
      subscriptionId: singleQueryValue()
        .meta({ format: 'uuid' })
        .optional()
        .describe('Subscription guid to read from (404 when it is not one the caller can see).'),
      environmentName: optionalQuery('Case-insensitive substring of the name or technical name.'),
    }),
    response: z.array(BasicEnvironmentModel),
    status: 200,
    errors: [400, 404],
    service: listEnvironments,
  }),
  defineOperation({
    id: 'environments.get',
    method: 'GET',
    path: '/api/v1/environments/{environmentId}',
    summary: 'One environment',
    description:
      'One environment with its storage use (the sum of its six storage parts) and its renders of the current calendar month (UTC). A caller who cannot see the environment gets 404, as for one that does not exist.',
    tag: 'Environments',
    access: 'platform:read',
    params: environmentParams,
    malformedParams: 404,
    response: EnvironmentModel,
    status: 200,
    errors: [404],
    service: getEnvironment,
  }),
  defineOperation({
    id: 'environments.renders',
    method: 'GET',
    path: '/api/v1/environments/{environmentId}/renders',
    summary: 'Render usage of one environment, by month (groupBy=year) or day (groupBy=month)',
    description:
      'Render counts of one environment per group: with `groupBy=year` one group per month over the current month and the 11 before it, with `groupBy=month` one group per day over the 30 days ending today (UTC). `startDate` and `endDate` (both or neither) replace the default range. Every group of the range is present, zero-filled, oldest first. The query is checked after visibility: an environment the caller cannot see is 404 whatever the query.',
    tag: 'Environments',
    access: 'platform:read',
    params: environmentParams,
    malformedParams: 400,
    query: renderQuery,
    response: z.array(EnvironmentRenderModel),
    status: 200,
    errors: [400, 404],
    service: getEnvironmentRenders,
  }),
  defineOperation({
    id: 'subscriptions.list',
    method: 'GET',
    path: '/api/v1/subscriptions',
    summary: 'Subscriptions visible to the caller, ordered by id',
    description:
      'Every subscription the caller can see (any subscription role in it, or any environment role on one of its environments), ordered by id. Operators (`platform:admin`) see all.',
    tag: 'Subscriptions',
    access: 'platform:read',
    response: z.array(BasicSubscriptionModel),
    status: 200,
    errors: [],
    service: listSubscriptions,
  }),
  defineOperation({
    id: 'subscriptions.get',
    method: 'GET',
    path: '/api/v1/subscriptions/{subscriptionId}',
    summary: 'One subscription with quotas, licenses, environments and usage',
    description:
      'One subscription with its quotas, licenses, environments, render usage of the current month, daily average over `averageRendersPeriodDays` and seat and environment counts.',
    tag: 'Subscriptions',
    access: 'platform:read',
    params: subscriptionParams,
    malformedParams: 404,
    response: SubscriptionModel,
    status: 200,
    errors: [404],
    service: getSubscription,
  }),
  defineOperation({
    id: 'subscriptions.renders',
    method: 'GET',
    path: '/api/v1/subscriptions/{subscriptionId}/renders',
    summary:
      'Render usage of a subscription per environment; `top` keeps the busiest and merges the rest into Others',
    description:
      'Render counts of a subscription per group, split by environment. Groups and ranges follow the environment renders endpoint. Environments are ordered by type, then renders (descending), then name. With `top=N` the N environments with the most renders over the whole range are listed in every group and the others are summed into one last entry named `Others` (present only when at least one environment was merged).',
    tag: 'Subscriptions',
    access: 'platform:read',
    params: subscriptionParams,
    malformedParams: 400,
    query: renderQuery.extend({
      top: renderParameter<number>(
        { type: 'integer', format: 'int32', minimum: 1 },
        'How many environments to list individually (those with the most renders over the range); the others are summed into Others.',
      ),
    }),
    response: z.array(SubscriptionRendersModel),
    status: 200,
    errors: [400, 404],
    service: getSubscriptionRenders,
  }),
  defineOperation({
    id: 'users.list',
    method: 'GET',
    path: '/api/v1/subscriptions/{subscriptionId}/users',
    summary: 'Users of a subscription (owners and admins only)',
    description:
      'The users of a subscription with their status and membership type. Needs SubscriptionOwner or SubscriptionAdmin in the subscription (403 otherwise).',
    tag: 'Users',
    access: 'platform:read',
    params: subscriptionParams,
    malformedParams: 404,
    response: z.array(UserModel),
    status: 200,
    errors: [404],
    service: listSubscriptionUsers,
  }),
  defineOperation({
    id: 'users.get',
    method: 'GET',
    path: '/api/v1/subscriptions/{subscriptionId}/users/{userId}',
    summary: 'One user of a subscription with roles (owners and admins only)',
    description:
      'One user of a subscription with their subscription roles, environment roles (keyed by environment guid) and `hasFullAccess`. Needs SubscriptionOwner or SubscriptionAdmin (403 otherwise). A malformed subscription id or user id is 400.',
    tag: 'Users',
    access: 'platform:read',
    params: z.object({ subscriptionId: uuid(), userId: UserId }),
    malformedParams: 400,
    response: SubscriptionUserModel,
    status: 200,
    errors: [400, 404],
    service: getSubscriptionUser,
  }),
  defineOperation({
    id: 'idpDomains.get',
    method: 'GET',
    path: '/api/v1/subscriptions/{subscriptionId}/external-idp-domains',
    summary: 'The allowed third-party identity-provider domains (an addition to the specification)',
    description:
      'The stored list of allowed third-party identity-provider domains, in ASCII (punycode) and lower case. Needs visibility of the subscription only.',
    tag: 'Subscriptions',
    access: 'platform:read',
    params: subscriptionParams,
    malformedParams: 400,
    response: z.array(z.string()),
    status: 200,
    errors: [400, 404],
    service: getIdpDomains,
  }),
  defineOperation({
    id: 'idpDomains.set',
    method: 'PUT',
    path: '/api/v1/subscriptions/{subscriptionId}/external-idp-domains',
    summary: 'Replace the allowed third-party identity-provider domains; [] clears them',
    description:
      'Replaces the whole list of allowed identity-provider domains (idempotent; `[]` clears it). Each entry must be a host name of at least two labels; Unicode names are stored as punycode, duplicates collapse, at most 100 entries. Every bad entry is named in `errors`. Needs SubscriptionOwner or SubscriptionAdmin (403 otherwise).',
    tag: 'Subscriptions',
    access: 'platform:write',
    params: subscriptionParams,
    malformedParams: 400,
    // Entries are checked one by one by the service so that every bad entry is named, not just the first.
    body: z.unknown().meta({ type: 'array', items: { type: 'string' }, maxItems: 100 }),
    bodyDescription:
      'Domain names to allow: host names of two labels or more; Unicode names are stored as punycode.',
    status: 200,
    errors: [400, 404],
    audit: { action: 'subscription.idpDomains.set', target: 'subscription' },
    service: setIdpDomains,
  }),
  defineOperation({
    id: 'renderEvents.ingest',
    method: 'POST',
    path: '/api/v1/render-events',
    summary: 'Ingest render events (token role platform:ingest), at most 10,000 per request',
    description:
      'Adds render events to the usage counts: at most 10,000 per request, each counted in its UTC day. One unknown environment guid refuses the whole batch (400 naming `body[i].environmentGuid`). Needs the token role `platform:ingest`.',
    tag: 'Render usage',
    access: 'platform:ingest',
    body: RenderEventBatch,
    describeUnknownKey: describeUnknownRenderEventKey,
    // 10,000 events (the documented maximum) are about 1 MB of JSON: such a batch is judged by its count, not by 413.
    bodyLimit: 8 * 1024 * 1024,
    // 10,000 events of up to six fields each, with room to spare: the count is the documented limit.
    bodyValueLimit: 200_000,
    response: z.strictObject({ accepted: z.int32() }).meta({ id: 'RenderEventsAccepted' }),
    status: 202,
    errors: [400],
    service: ingestRenderEvents,
  }),
  defineOperation({
    id: 'imports.create',
    method: 'POST',
    path: '/api/v1/imports',
    summary: 'Upsert a data file (operators; what platform-server import uses while the server runs)',
    description:
      'Upserts a data file, all of it or nothing, and answers how many rows of each kind it held. Importing the same file again changes nothing. Unknown keys and bad values are refused, each named by its path. Needs `platform:write` and the operator role `platform:admin`.',
    tag: 'Operations',
    access: 'platform:write',
    operatorOnly: true,
    // importDataFile parses the file itself: its errors name unknown keys with the key meant.
    body: z.custom<z.input<typeof DataFile>>(() => true),
    documentedBody: DataFile,
    bodyDescription: 'A data file (docs/data-file.md); every top-level key is optional.',
    // Data files carry render history.
    bodyLimit: 256 * 1024 * 1024,
    // Bounded by its bytes: an operator's import is parsed a chunk and checked a slice of events per turn.
    bodyValueLimit: Number.POSITIVE_INFINITY,
    response: ImportSummary,
    status: 200,
    errors: [400],
    audit: { action: 'data.import', target: 'dataFile' },
    service: createImport,
  }),
] as const;
