import {
  AuthConfigurationSet,
  AuthConfigurationSummary,
  AuthKind,
  AuthType,
  AuthUsage,
  authDataSchemas,
  Connector,
  ConnectorList,
  CreateTemplateBody,
  ExternalMediaId,
  kindOfType,
  Media,
  MediaBody,
  MediaSubjectType,
  MediaSubjectTypes,
  PatchConnectorBody,
  PublishConnectorBody,
  RepublishConnectorBody,
  SharedHeaderNames,
  SharedHeadersBody,
  SubjectTypesUpdateBody,
  TagBody,
  TagRef,
  TEMPLATE_CONTENT_MAX_BYTES,
  TEMPLATE_CONTENT_MAX_VALUES,
  Template,
  TemplateContent,
  TemplatePage,
  TemplateTagsBody,
  UpdateTemplateBody,
  uuid,
  VisionResponse,
} from '@platform/core';
import { z } from 'zod';
import { deleteConnectorAuth } from '../services/connector-auth/delete.ts';
import { listConnectorAuth } from '../services/connector-auth/list.ts';
import { setConnectorAuth } from '../services/connector-auth/set.ts';
import { deleteConnector } from '../services/connectors/delete.ts';
import { getConnector } from '../services/connectors/get.ts';
import { listConnectors } from '../services/connectors/list.ts';
import { patchConnector } from '../services/connectors/patch.ts';
import { publishConnector } from '../services/connectors/publish.ts';
import { republishConnector } from '../services/connectors/republish.ts';
import { createExternalMedia, createMedia } from '../services/media/create.ts';
import { getExternalMediaSubjectType, getMediaSubjectType } from '../services/media/get-subject-type.ts';
import {
  updateExternalMediaSubjectTypes,
  updateMediaSubjectTypes,
} from '../services/media/update-subject-types.ts';
import { getSharedHeaders } from '../services/shared-headers/get.ts';
import { setSharedHeaders } from '../services/shared-headers/set.ts';
import { createTag } from '../services/tags/create.ts';
import { deleteTag } from '../services/tags/delete.ts';
import { listTags } from '../services/tags/list.ts';
import { renameTag } from '../services/tags/rename.ts';
import { createTemplate } from '../services/templates/create.ts';
import { deleteTemplate } from '../services/templates/delete.ts';
import { downloadTemplate } from '../services/templates/download.ts';
import { getTemplate } from '../services/templates/get.ts';
import { listTemplates } from '../services/templates/list.ts';
import { setTemplateTags } from '../services/templates/set-tags.ts';
import { updateTemplate } from '../services/templates/update.ts';
import { getVision } from '../services/vision/get.ts';
import { GIVEN_ONCE, pageLimit, singleQueryValue } from './input.ts';
import { defineOperation } from './operation.ts';

/** The environment API (docs/environment-api.md). */
const BASE = '/grafx/api/v1/environment/{environment}';

const environment = z
  .string()
  .min(1)
  .max(253)
  .describe("The environment's technical name (case-insensitive) or its guid.");
const environmentParams = z.object({ environment });
const connectorParams = environmentParams.extend({ connectorId: uuid() });
const templateParams = environmentParams.extend({ templateId: uuid() });
const tagParams = environmentParams.extend({ tagId: uuid() });
const mediaParams = environmentParams.extend({ mediaId: uuid() });
const externalMediaParams = environmentParams.extend({ externalMediaId: ExternalMediaId });

/** A template body carries a document of up to 5 MiB, plus its name and the JSON around them. */
const templateBodyLimit = TEMPLATE_CONTENT_MAX_BYTES + 64 * 1024;

/**
 * `{usage, name?, ...data}`: the data depends on `{kind}`, so the service validates the whole body at once and
 * names every bad field; this schema only documents it, one variant per kind.
 */
const authBody = z.record(z.string(), z.unknown()).meta({
  oneOf: AuthType.options.map((type) => {
    const { $schema: _dialect, ...schema } = z.toJSONSchema(
      authDataSchemas[type].extend({
        usage: z.enum(AuthUsage.options),
        name: z.string().min(1).max(200).optional(),
      }),
      { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' },
    );
    return { title: `${type} (kind ${kindOfType[type]})`, ...schema };
  }),
});

const templateQuery = z.object({
  search: singleQueryValue().max(200).optional().describe('Case-insensitive substring of the name.'),
  // Documented as a uuid; a value that is not one cannot name a tag and is judged by the service (404).
  tagId: singleQueryValue()
    .meta({ format: 'uuid' })
    .optional()
    .describe('Only templates carrying this tag (404 when the value is not a tag id at all).'),
  limit: pageLimit(100).describe('Page size, 1 to 100; default 25.'),
  nextPageToken: singleQueryValue()
    .max(2048)
    .optional()
    .describe('Opaque token from links.nextPage of the previous page.'),
});

const tagQuery = z.object({
  limit: templateQuery.shape.limit.describe('Page size, 1 to 100; default 100. Given: the answer is a page.'),
  nextPageToken: templateQuery.shape.nextPageToken,
});

const read = { access: 'platform:read', malformedParams: 404 } as const;
const write = { access: 'platform:write', malformedParams: 404 } as const;

export const environmentOperations = [
  defineOperation({
    id: 'connectors.list',
    method: 'GET',
    path: `${BASE}/connectors`,
    summary: "The environment's connectors, by name",
    description: 'Every connector published in the environment, by name. Never a secret.',
    tag: 'Connectors',
    ...read,
    params: environmentParams,
    response: ConnectorList,
    status: 200,
    errors: [404],
    service: listConnectors,
  }),
  defineOperation({
    id: 'connectors.listExperimental',
    method: 'GET',
    path: '/grafx/api/experimental/environment/{environment}/connectors',
    summary: 'The same connector list at its experimental path',
    description:
      "The connector list again, at the path the platform's connector tooling uses to look a connector id up.",
    tag: 'Connectors',
    ...read,
    params: environmentParams,
    response: ConnectorList,
    status: 200,
    errors: [404],
    service: listConnectors,
  }),
  defineOperation({
    id: 'connectors.publish',
    method: 'POST',
    path: `${BASE}/connectors`,
    summary:
      'Publish a connector without authorization; enabled unless `enabled: false`, every type unless `supportedAuth` says',
    description:
      'Publishes a connector from its built script and metadata. Without `supportedAuth` it supports all five authorization types; without `enabled` it is enabled. No authorization is set until one is configured per usage. Needs EnvironmentAdmin on the environment, or SubscriptionOwner or SubscriptionAdmin.',
    tag: 'Connectors',
    ...write,
    params: environmentParams,
    body: PublishConnectorBody,
    response: Connector,
    status: 201,
    errors: [400, 404, 409, 422],
    audit: { action: 'connector.publish', target: 'connector' },
    service: publishConnector,
  }),
  defineOperation({
    id: 'connectors.get',
    method: 'GET',
    path: `${BASE}/connectors/{connectorId}`,
    summary: 'One connector',
    description:
      'One connector: its metadata, allowed domains, proxy options and which authorization type each usage is set to. Never a secret.',
    tag: 'Connectors',
    ...read,
    params: connectorParams,
    response: Connector,
    status: 200,
    errors: [404],
    service: getConnector,
  }),
  defineOperation({
    id: 'connectors.republish',
    method: 'PUT',
    path: `${BASE}/connectors/{connectorId}`,
    summary:
      'Publish a new version of a connector; 409 when it drops a type an authorization of the connector uses',
    description:
      "Replaces a connector's script and metadata with a new version. The read-only fields of a connector read earlier (`id`, `supportedAuthentication`, `createdAt`, `updatedAt`) are accepted and ignored; an absent `supportedAuth` keeps the stored list. Dropping a type that a usage is configured with is refused with 409.",
    tag: 'Connectors',
    ...write,
    params: connectorParams,
    body: RepublishConnectorBody,
    response: Connector,
    status: 200,
    errors: [400, 404, 409, 422],
    audit: { action: 'connector.republish', target: 'connector', targetParam: 'connectorId' },
    service: republishConnector,
  }),
  defineOperation({
    id: 'connectors.patch',
    method: 'PATCH',
    path: `${BASE}/connectors/{connectorId}`,
    summary: 'Enable, disable, rename a connector or mark it default',
    description:
      "Changes the connector's `enabled`, `default` or `name` without republishing it. A disabled connector answers 403 through the proxy.",
    tag: 'Connectors',
    ...write,
    params: connectorParams,
    body: PatchConnectorBody,
    response: Connector,
    status: 200,
    errors: [400, 404],
    audit: { action: 'connector.update', target: 'connector', targetParam: 'connectorId' },
    service: patchConnector,
  }),
  defineOperation({
    id: 'connectors.delete',
    method: 'DELETE',
    path: `${BASE}/connectors/{connectorId}`,
    summary: 'Delete a connector with its authorizations, shared headers and every cached token',
    description:
      'Deletes the connector with its authorization of each usage, its shared headers and every token cached for it.',
    tag: 'Connectors',
    ...write,
    params: connectorParams,
    status: 204,
    errors: [404],
    audit: { action: 'connector.delete', target: 'connector', targetParam: 'connectorId' },
    service: deleteConnector,
  }),
  defineOperation({
    id: 'connectorAuth.set',
    method: 'PUT',
    path: `${BASE}/connectors/{connectorId}/auth/{kind}`,
    summary: 'Set or replace the authorization of one usage; secrets are encrypted and never returned',
    description:
      "Sets the authorization of one usage (`browser` or `server`) to the type named by `{kind}`, replacing whatever that usage had; its cached OAuth tokens stay (only deleting the connector resets them). The body is `{usage, name?}` plus the type's own data; unknown fields, a type outside the connector's `supportedAuth` and the authorization code type for the server usage are refused with 400. Secret fields are encrypted at rest and never returned or logged.",
    tag: 'Connector authorization',
    ...write,
    params: connectorParams.extend({ kind: AuthKind }),
    body: authBody,
    bodyDescription:
      '`usage` (browser or server), optional `name`, and the fields of the type named by `{kind}` (docs/connector-auth.md).',
    response: AuthConfigurationSet,
    status: 200,
    errors: [400, 404],
    audit: { action: 'connector.auth.set', target: 'connectorAuthorization', targetParam: 'connectorId' },
    service: setConnectorAuth,
  }),
  defineOperation({
    id: 'connectorAuth.list',
    method: 'GET',
    path: `${BASE}/connectors/{connectorId}/auth`,
    summary: 'What each usage of a connector is set to (never a secret)',
    description:
      'What each configured usage of the connector is set to: usage, type, name and when it changed. Never a secret.',
    tag: 'Connector authorization',
    ...read,
    params: connectorParams,
    response: z.array(AuthConfigurationSummary),
    status: 200,
    errors: [404],
    service: listConnectorAuth,
  }),
  defineOperation({
    id: 'connectorAuth.delete',
    method: 'DELETE',
    path: `${BASE}/connectors/{connectorId}/auth`,
    summary: "Remove one usage's authorization; 204 also when none was set",
    description:
      'Removes the authorization of the usage named by `authUsage` (its cached OAuth tokens stay: only deleting the connector resets them). Answers 204 also when the usage had none.',
    tag: 'Connector authorization',
    ...write,
    params: connectorParams,
    query: z.object({
      authUsage: z
        .enum(AuthUsage.options, { error: 'required: browser or server' })
        .describe('Required: browser or server.'),
    }),
    status: 204,
    errors: [400, 404],
    audit: { action: 'connector.auth.delete', target: 'connectorAuthorization', targetParam: 'connectorId' },
    service: deleteConnectorAuth,
  }),
  defineOperation({
    id: 'sharedHeaders.set',
    method: 'PUT',
    path: `${BASE}/connectors/{connectorId}/shared-headers`,
    summary: "Replace the connector's shared header values ({} removes them); answers the names only",
    description:
      'Replaces the header values the proxy sends on every request of every instance of this connector; `{ "headers": {} }` removes them. Values are encrypted at rest; the answer lists the names only.',
    tag: 'Connector authorization',
    ...write,
    params: connectorParams,
    body: SharedHeadersBody,
    response: SharedHeaderNames,
    status: 200,
    errors: [400, 404],
    audit: { action: 'connector.sharedHeaders.set', target: 'connector', targetParam: 'connectorId' },
    service: setSharedHeaders,
  }),
  defineOperation({
    id: 'sharedHeaders.get',
    method: 'GET',
    path: `${BASE}/connectors/{connectorId}/shared-headers`,
    summary: "The names of the connector's shared headers (never the values)",
    description: "The names of the connector's shared headers. Values are never returned.",
    tag: 'Connector authorization',
    ...read,
    params: connectorParams,
    response: SharedHeaderNames,
    status: 200,
    errors: [404],
    service: getSharedHeaders,
  }),
  defineOperation({
    id: 'templates.list',
    method: 'GET',
    path: `${BASE}/templates`,
    summary: 'Templates by name, a page at a time; search by name, filter by tag',
    description:
      'Templates of the environment by name (code-point order), then id, a page at a time. `search` matches a substring of the name ignoring case, `tagId` keeps templates carrying that tag (an unknown tag gives an empty page; a value that is not a GUID cannot name a tag and answers 404). `links.nextPage` is the absolute URL of the next page, keeping the filters.',
    tag: 'Templates',
    ...read,
    params: environmentParams,
    query: templateQuery,
    response: TemplatePage,
    status: 200,
    errors: [400, 404],
    service: listTemplates,
  }),
  defineOperation({
    id: 'templates.create',
    method: 'POST',
    path: `${BASE}/templates`,
    summary: 'Create a template',
    description: 'Creates a template with a name and, optionally, its document (any JSON value up to 5 MiB).',
    tag: 'Templates',
    ...write,
    params: environmentParams,
    body: CreateTemplateBody,
    bodyLimit: templateBodyLimit,
    bodyValueLimit: TEMPLATE_CONTENT_MAX_VALUES,
    response: Template,
    status: 201,
    errors: [400, 404, 409],
    audit: { action: 'template.create', target: 'template' },
    service: createTemplate,
  }),
  defineOperation({
    id: 'templates.get',
    method: 'GET',
    path: `${BASE}/templates/{templateId}`,
    summary: 'One template',
    description: 'One template with its tags, creation time and the time its content last changed.',
    tag: 'Templates',
    ...read,
    params: templateParams,
    response: Template,
    status: 200,
    errors: [404],
    service: getTemplate,
  }),
  defineOperation({
    id: 'templates.download',
    method: 'GET',
    path: `${BASE}/templates/{templateId}/download`,
    summary: 'The template document, as stored (null when none was given)',
    description:
      'Returns the template document exactly as it was stored (any JSON value, up to 5 MiB), as `application/json`; `null` when the template was created without content. Needs visibility of the environment.',
    tag: 'Templates',
    ...read,
    params: templateParams,
    response: TemplateContent,
    status: 200,
    errors: [404],
    service: downloadTemplate,
  }),
  defineOperation({
    id: 'templates.update',
    method: 'PUT',
    path: `${BASE}/templates/{templateId}`,
    summary: 'Rename a template or replace its content (LastModifiedContentUtc moves only with the content)',
    description:
      'Renames a template or replaces its document. `LastModifiedContentUtc` changes only when the content does.',
    tag: 'Templates',
    ...write,
    params: templateParams,
    body: UpdateTemplateBody,
    bodyLimit: templateBodyLimit,
    bodyValueLimit: TEMPLATE_CONTENT_MAX_VALUES,
    response: Template,
    status: 200,
    errors: [400, 404],
    audit: { action: 'template.update', target: 'template', targetParam: 'templateId' },
    service: updateTemplate,
  }),
  defineOperation({
    id: 'templates.delete',
    method: 'DELETE',
    path: `${BASE}/templates/{templateId}`,
    summary: 'Delete a template',
    description: 'Deletes a template and its tag assignments.',
    tag: 'Templates',
    ...write,
    params: templateParams,
    status: 204,
    errors: [404],
    audit: { action: 'template.delete', target: 'template', targetParam: 'templateId' },
    service: deleteTemplate,
  }),
  defineOperation({
    id: 'templates.setTags',
    method: 'PUT',
    path: `${BASE}/templates/{templateId}/tags`,
    summary: "Replace a template's tags; an unknown tag id is a 400 naming it",
    description:
      'Replaces the tags of a template with the listed tag ids. An unknown tag id is a 400 naming it; nothing changes then.',
    tag: 'Templates',
    ...write,
    params: templateParams,
    body: TemplateTagsBody,
    response: Template,
    status: 200,
    errors: [400, 404],
    audit: { action: 'template.tags.set', target: 'template', targetParam: 'templateId' },
    service: setTemplateTags,
  }),
  defineOperation({
    id: 'tags.list',
    method: 'GET',
    path: `${BASE}/tags`,
    summary: "The environment's tags, by name; paged when asked",
    description:
      'Every tag of the environment, by name (code-point order of the lower-case name, then id): `{data}`, at most 1,000 tags. With `limit` or `nextPageToken` a page at a time, as templates are listed: `{data, pageSize, links: {nextPage}}`.',
    tag: 'Tags',
    ...read,
    params: environmentParams,
    query: tagQuery,
    response: z
      .union([
        z.strictObject({ data: z.array(TagRef) }),
        z.strictObject({
          data: z.array(TagRef),
          pageSize: z.int(),
          links: z.strictObject({ nextPage: z.string().nullable() }),
        }),
      ])
      .meta({ id: 'TagList' }),
    status: 200,
    errors: [400, 404],
    service: listTags,
  }),
  defineOperation({
    id: 'tags.create',
    method: 'POST',
    path: `${BASE}/tags`,
    summary: 'Create a tag; names are unique per environment, ignoring case (409)',
    description: 'Creates a tag. Names are unique per environment, ignoring case: a taken name is 409.',
    tag: 'Tags',
    ...write,
    params: environmentParams,
    body: TagBody,
    response: TagRef,
    status: 201,
    errors: [400, 404, 409],
    audit: { action: 'tag.create', target: 'tag' },
    service: createTag,
  }),
  defineOperation({
    id: 'tags.rename',
    method: 'PUT',
    path: `${BASE}/tags/{tagId}`,
    summary: 'Rename a tag (409 when another tag has the name)',
    description: 'Renames a tag; 409 when another tag of the environment has the name (ignoring case).',
    tag: 'Tags',
    ...write,
    params: tagParams,
    body: TagBody,
    response: TagRef,
    status: 200,
    errors: [400, 404, 409],
    audit: { action: 'tag.update', target: 'tag', targetParam: 'tagId' },
    service: renameTag,
  }),
  defineOperation({
    id: 'tags.delete',
    method: 'DELETE',
    path: `${BASE}/tags/{tagId}`,
    summary: 'Delete a tag and remove it from every template',
    description: 'Deletes a tag and removes it from every template that carried it.',
    tag: 'Tags',
    ...write,
    params: tagParams,
    status: 204,
    errors: [404],
    audit: { action: 'tag.delete', target: 'tag', targetParam: 'tagId' },
    service: deleteTag,
  }),
  defineOperation({
    id: 'vision.get',
    method: 'GET',
    path: `${BASE}/vision`,
    summary: "The environment's vision subject types (a standard set to start with)",
    description:
      "The environment's vision subject types, seeded with a standard set the first time they are read. `expand=allSubjectTypes` is the only expansion.",
    tag: 'Vision',
    ...read,
    params: environmentParams,
    query: z.object({
      expand: z
        .enum(['allSubjectTypes'], {
          error: (issue) =>
            Array.isArray(issue.input) ? GIVEN_ONCE : 'the only expansion is allSubjectTypes',
        })
        .optional()
        .describe('allSubjectTypes (the default and only expansion).'),
    }),
    response: VisionResponse,
    status: 200,
    errors: [400, 404],
    service: getVision,
  }),
  defineOperation({
    id: 'media.create',
    method: 'POST',
    path: `${BASE}/media`,
    summary: 'Register a media asset',
    description: 'Registers a media asset so that subject types can be assigned to it.',
    tag: 'Vision',
    ...write,
    params: environmentParams,
    body: MediaBody,
    response: Media,
    status: 201,
    errors: [400, 404, 409],
    service: createMedia,
  }),
  defineOperation({
    id: 'media.getSubjectType',
    method: 'GET',
    path: `${BASE}/media/{mediaId}/vision/subject-types/{subjectTypeId}`,
    summary: 'Whether a media asset has one subject type',
    description: 'Whether one subject type is assigned to a media asset, and when that last changed.',
    tag: 'Vision',
    ...read,
    params: mediaParams.extend({ subjectTypeId: uuid() }),
    response: MediaSubjectType,
    status: 200,
    errors: [404],
    service: getMediaSubjectType,
  }),
  defineOperation({
    id: 'media.updateSubjectTypes',
    method: 'PATCH',
    path: `${BASE}/media/{mediaId}`,
    summary: 'Set subject types of a media asset, one or many at once',
    description:
      'Assigns or unassigns subject types of a media asset, one or many at once, and answers all of its subject types. An unknown subject type id is a 400 naming it; nothing changes then.',
    tag: 'Vision',
    ...write,
    params: mediaParams,
    body: SubjectTypesUpdateBody,
    response: MediaSubjectTypes,
    status: 200,
    errors: [400, 404],
    audit: { action: 'media.subjectTypes.set', target: 'media', targetParam: 'mediaId' },
    service: updateMediaSubjectTypes,
  }),
  defineOperation({
    id: 'externalMedia.create',
    method: 'POST',
    path: `${BASE}/external-media`,
    summary:
      'Register an external media asset under a new uuid (an addition: the first PUT .../vision of any id records it too)',
    description:
      'Registers an external media asset under a new uuid, which becomes its id. The first PUT .../vision of any other id records that asset too.',
    tag: 'Vision',
    ...write,
    params: environmentParams,
    body: MediaBody,
    response: Media,
    status: 201,
    errors: [400, 404, 409],
    service: createExternalMedia,
  }),
  defineOperation({
    id: 'externalMedia.getSubjectType',
    method: 'GET',
    path: `${BASE}/external-media/{externalMediaId}/vision/subject-types/{subjectTypeId}`,
    summary: 'Whether an external media asset has one subject type',
    description:
      'Whether one subject type is assigned to an external media asset. An id never recorded is 404.',
    tag: 'Vision',
    ...read,
    params: externalMediaParams.extend({ subjectTypeId: uuid() }),
    response: MediaSubjectType,
    status: 200,
    errors: [404],
    service: getExternalMediaSubjectType,
  }),
  defineOperation({
    id: 'externalMedia.updateSubjectTypes',
    method: 'PUT',
    path: `${BASE}/external-media/{externalMediaId}/vision`,
    summary:
      "Set subject types of an external media asset, one or many at once; the first call records the asset by its source's id",
    description:
      'Assigns or unassigns subject types of an external media asset, one or many at once; the first call records the id. An unknown subject type id is a 400 naming it; nothing changes then.',
    tag: 'Vision',
    ...write,
    params: externalMediaParams,
    body: SubjectTypesUpdateBody,
    response: MediaSubjectTypes,
    status: 200,
    errors: [400, 404, 409],
    audit: { action: 'media.subjectTypes.set', target: 'media', targetParam: 'externalMediaId' },
    service: updateExternalMediaSubjectTypes,
  }),
] as const;
