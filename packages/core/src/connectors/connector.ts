import { z } from 'zod';
import { dateTime, uuid } from '../models/scalars.ts';
import { ipSpellingProblem, wildcardProblem } from './allowed-domain-host.ts';
import { AuthType, AuthUsage } from './auth-types.ts';
import { HeaderName, HeaderValue } from './header-field.ts';

/**
 * `example.com` or `*.example.com`, optionally with the one port credentials may go to (`example.com:8443`): no
 * scheme, path or bare `*`; a wildcard stands above a registrable domain (the Public Suffix List), and an IP address
 * is written in dotted decimal (docs/environment-api.md, docs/connector-proxy.md).
 */
export const AllowedDomain = z
  .string()
  .max(259)
  .regex(
    /^(\*\.)?(?!-)[A-Za-z0-9-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))*(:(?!0)\d{1,5})?$/,
    'a host name such as example.com or *.example.com, optionally with :port, without scheme or path',
  )
  .refine((entry) => Number(entry.split(':')[1] ?? 1) <= 65_535, 'a port from 1 to 65535')
  .refine((entry) => (entry.split(':')[0] ?? '').length <= 253, 'a host name of at most 253 characters')
  .superRefine((entry, ctx) => {
    const host = entry.split(':')[0] ?? '';
    const problem = host.startsWith('*.') ? wildcardProblem(host.slice(2)) : ipSpellingProblem(host);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  })
  .describe(
    '`example.com` or `*.example.com`, optionally with `:port`. A wildcard must stand above a registrable domain by the Public Suffix List (`*.com`, `*.co.uk`, `*.github.io` are refused); an IP address only in dotted decimal (`0x7f000001`, `2130706433`, `0177.0.0.1`, `127.1` are refused).',
  );

export const ConnectorType = z.enum(['media', 'data']).meta({ id: 'ConnectorType' });
export type ConnectorType = z.infer<typeof ConnectorType>;

export const ProxyOptions = z
  .strictObject({ forwardedHeaders: z.boolean().default(false) })
  .meta({ id: 'ProxyOptions' });

/** Body of `POST /connectors` and `PUT /connectors/{connectorId}` (docs/environment-api.md). */
export const PublishConnectorBody = z
  .strictObject({
    name: z.string().min(1).max(200),
    description: z.string().max(2000).nullable().optional(),
    version: z.string().min(1).max(64),
    type: ConnectorType,
    // Shown as an image by consoles: javascript:, data: and file: URLs would run or read there. "" is no icon, as
    // null is: the platform's own connectors ship `config.iconUrl: ""`.
    iconUrl: z
      .union([
        z
          .url({ protocol: /^https?$/, error: 'an absolute https:// or http:// URL, or "" for no icon' })
          .max(2048),
        z.literal(''),
      ])
      .nullable()
      .optional()
      .describe('An https:// or http:// URL; "" or null: no icon.'),
    options: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
    script: z.string().min(1).max(900_000),
    apiVersion: z.string().max(64).optional(),
    allowedDomains: z.array(AllowedDomain).min(1).max(100),
    proxyOptions: ProxyOptions.nullable().optional().describe('Absent or null: forwardedHeaders false.'),
    supportedAuth: z
      .array(AuthType)
      .max(5)
      .optional()
      .describe('Absent: all five types on publish; on republish, the stored list stays.'),
    enabled: z
      .boolean()
      .optional()
      .describe('Absent: true on publish; on republish, the stored value stays.'),
  })
  .meta({ id: 'PublishConnectorBody' });
export type PublishConnectorBody = z.infer<typeof PublishConnectorBody>;

/** A read-only field of the Connector record: the platform's CLI sends a GET reply back, so it is accepted and ignored. */
const ignored = (field: string) =>
  z.unknown().optional().describe(`Read-only ${field} of the Connector: ignored.`);

/**
 * Body of `PUT /connectors/{connectorId}` (republish): the publish body, plus `default`, plus the Connector's
 * read-only fields, which the platform's own CLI sends because it merges the GET reply into the body.
 */
export const RepublishConnectorBody = PublishConnectorBody.extend({
  default: z.boolean().optional().describe('Absent: the stored value stays.'),
  id: ignored('id'),
  supportedAuthentication: ignored('supportedAuthentication'),
  createdAt: ignored('createdAt'),
  updatedAt: ignored('updatedAt'),
}).meta({ id: 'RepublishConnectorBody' });
export type RepublishConnectorBody = z.infer<typeof RepublishConnectorBody>;

export const PatchConnectorBody = z
  .strictObject({
    enabled: z.boolean().optional(),
    default: z.boolean().optional(),
    name: z.string().min(1).max(200).optional(),
  })
  .meta({ id: 'PatchConnectorBody' });
export type PatchConnectorBody = z.infer<typeof PatchConnectorBody>;

export const Connector = z
  .strictObject({
    id: uuid(),
    name: z.string(),
    description: z.string().nullable(),
    version: z.string(),
    type: ConnectorType,
    iconUrl: z.string().nullable(),
    enabled: z.boolean(),
    default: z.boolean(),
    allowedDomains: z.array(z.string()),
    proxyOptions: z.strictObject({ forwardedHeaders: z.boolean() }),
    supportedAuthentication: z.strictObject({ browser: z.array(AuthType), server: z.array(AuthType) }),
    createdAt: dateTime(),
    updatedAt: dateTime(),
  })
  .meta({ id: 'Connector' });
export type Connector = z.infer<typeof Connector>;

export const ConnectorList = z.strictObject({ data: z.array(Connector) }).meta({ id: 'ConnectorList' });

/** Response of `PUT .../auth/{kind}`. */
export const AuthConfigurationSet = z
  .strictObject({ id: uuid(), name: z.string(), type: AuthType, usage: AuthUsage })
  .meta({ id: 'AuthConfigurationSet' });
export type AuthConfigurationSet = z.infer<typeof AuthConfigurationSet>;

/** Element of `GET .../auth`: never a secret. */
export const AuthConfigurationSummary = z
  .strictObject({ usage: AuthUsage, type: AuthType, name: z.string(), updatedAt: dateTime() })
  .meta({ id: 'AuthConfigurationSummary' });
export type AuthConfigurationSummary = z.infer<typeof AuthConfigurationSummary>;

export const SharedHeadersBody = z
  .strictObject({
    headers: z.record(HeaderName, HeaderValue),
  })
  .meta({ id: 'SharedHeadersBody' });
export type SharedHeadersBody = z.infer<typeof SharedHeadersBody>;

/** Answer of the shared-headers endpoints: the header names only, never a value. */
export const SharedHeaderNames = z
  .strictObject({ names: z.array(z.string()) })
  .meta({ id: 'SharedHeaderNames' });
export type SharedHeaderNames = z.infer<typeof SharedHeaderNames>;
