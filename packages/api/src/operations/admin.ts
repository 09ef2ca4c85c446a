import {
  BasicEnvironmentModel,
  BasicSubscriptionModel,
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
import { ingestRenderEvents } from '../services/render-events/ingest.ts';
import { getSubscription } from '../services/subscriptions/get.ts';
import { listSubscriptions } from '../services/subscriptions/list.ts';
import { getSubscriptionRenders } from '../services/subscriptions/renders.ts';
import { getSubscriptionUser } from '../services/users/get.ts';
import { listSubscriptionUsers } from '../services/users/list.ts';
import { singleQueryValue } from './input.ts';
import { defineOperation } from './operation.ts';

const subscriptionParams = z.object({ subscriptionId: uuid() });
const environmentParams = z.object({ environmentId: uuid() });
const optionalQuery = (description: string) => singleQueryValue().optional().describe(description);

const renderQuery = z.object({
  groupBy: optionalQuery('Required. `year`: the last 12 months by month; `month`: the last 30 days by day.'),
  startDate: optionalQuery('yyyy-MM-dd; with endDate, replaces the default range (inclusive).'),
  endDate: optionalQuery('yyyy-MM-dd; required when startDate is given.'),
});

/** Sections 4.1 and 4.2 of the specification, plus the additions of docs/admin-api.md, docs/data-file.md. */
export const adminOperations = [
  defineOperation({
    id: 'info.get',
    method: 'GET',
    path: '/api/v1/info',
    summary: 'Service information: the current server version',
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
    summary: 'Availability: 200 without a body while the server and its database answer',
    tag: 'Service',
    access: 'public',
    status: 200,
    errors: [503],
    service: ping,
  }),
  defineOperation({
    id: 'environments.list',
    method: 'GET',
    path: '/api/v1/environments',
    summary: 'Environments visible to the caller, optionally of one subscription and matching a name',
    tag: 'Environments',
    access: 'platform:read',
    query: z.object({
      subscriptionId: optionalQuery('Subscription guid to read from.'),
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
    tag: 'Subscriptions',
    access: 'platform:read',
    params: subscriptionParams,
    malformedParams: 400,
    query: renderQuery.extend({ top: optionalQuery('Integer ≥ 1: environments listed individually.') }),
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
    service: setIdpDomains,
  }),
  defineOperation({
    id: 'renderEvents.ingest',
    method: 'POST',
    path: '/api/v1/render-events',
    summary: 'Ingest render events (token role platform:ingest), at most 10,000 per request',
    tag: 'Render usage',
    access: 'platform:ingest',
    body: RenderEventBatch,
    // 10,000 events (the documented maximum) are about 1 MB of JSON: such a batch is judged by its count, not by 413.
    bodyLimit: 8 * 1024 * 1024,
    response: z.strictObject({ accepted: z.int() }).meta({ id: 'RenderEventsAccepted' }),
    status: 202,
    errors: [400],
    service: ingestRenderEvents,
  }),
  defineOperation({
    id: 'imports.create',
    method: 'POST',
    path: '/api/v1/imports',
    summary: 'Upsert a data file (operators; what platform-server import uses while the server runs)',
    tag: 'Operations',
    access: 'platform:write',
    operatorOnly: true,
    body: z.unknown().meta({ type: 'object', description: 'The data file of docs/data-file.md' }),
    // Data files carry render history.
    bodyLimit: 256 * 1024 * 1024,
    response: z.record(z.string(), z.unknown()),
    status: 200,
    errors: [400],
    service: createImport,
  }),
] as const;
