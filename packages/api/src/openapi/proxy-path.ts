import { PROXY_PATH } from '../rest/proxy-route.ts';

type Problem = (status: number) => Record<string, unknown>;

const header = (name: string, description: string, schema: Record<string, unknown>, required = false) => ({
  name,
  in: 'header',
  required,
  description,
  schema,
});

const PARAMETERS = [
  {
    name: 'environment',
    in: 'path',
    required: true,
    description: "The environment's technical name (case-insensitive) or its guid.",
    schema: { type: 'string', minLength: 1, maxLength: 253 },
  },
  {
    name: 'connectorId',
    in: 'path',
    required: true,
    description: 'The connector whose allowed domains and authorization apply.',
    schema: { type: 'string', format: 'uuid' },
  },
  header(
    'x-grafx-proxy-external-url',
    "The absolute http(s) URL to call, without user information. Its host must match one of the connector's `allowedDomains` and resolve to a public address.",
    { type: 'string', format: 'uri', examples: ['https://api.acme.example/v1/assets?limit=10'] },
    true,
  ),
  header(
    'x-grafx-proxy-external-method',
    "The method of the call to the target; default the request's own. CONNECT and TRACE are refused.",
    { type: 'string', examples: ['POST'] },
  ),
  header(
    'x-grafx-proxy-external-authentication-source',
    "Which usage's authorization to inject: `browser` (default) or `server`, which needs the token role `connector:server`.",
    { type: 'string', enum: ['browser', 'server'], default: 'browser' },
  ),
  header(
    'x-grafx-proxy-exclude-headers',
    'Comma-separated names of further request headers not to forward.',
    { type: 'string', examples: ['x-debug, x-client-build'] },
  ),
];

const passedThrough = {
  description:
    "The target's answer: its status, headers and body as they came, except `Set-Cookie` and hop-by-hop headers. Every proxied answer carries `Content-Security-Policy: sandbox` and `X-Content-Type-Options: nosniff`.",
  headers: {
    'Content-Security-Policy': {
      description: 'Always `sandbox`.',
      schema: { type: 'string', const: 'sandbox' },
    },
    'X-Content-Type-Options': {
      description: 'Always `nosniff`.',
      schema: { type: 'string', const: 'nosniff' },
    },
    'X-GRAFX-UNAUTHORIZED': {
      description:
        'Set when the target refused the injected credential twice (the second time after a fresh token): `<type>, <connectorId>`.',
      schema: { type: 'string', examples: ['oAuth2ClientCredentials, 7c6a1c2e-3f0b-4b7e-9a55-2d4f8e1b6c01'] },
    },
  },
  content: { '*/*': { schema: {} } },
};

const DESCRIPTION = [
  "Sends the connector runtime's request on to the external API named by `x-grafx-proxy-external-url`, with the",
  'authorization configured for the chosen usage injected on the way (a static header, or an OAuth 2.0 access',
  'token the platform obtains and caches per connector and usage). The caller needs `platform:read` and visibility',
  "of the environment, whatever the method. The caller's `Authorization`, `Cookie`, `X-Forwarded-*`, hop-by-hop and",
  '`x-grafx-*` headers are not forwarded. Every hop, redirects included, is checked against `allowedDomains` and',
  'public addresses; an injected credential and the shared headers go to the original origin only, over https and to',
  'a port `allowedDomains` names (else 403). An upstream 401',
  'after injecting a token is retried once with a fresh token. Errors of the proxy itself are ProblemDetails;',
  "any other status is the target's own. Accepts every method; the common ones are listed.",
].join(' ');

/** The connector proxy route (served by @platform/proxy, not by the operation table): one path item, every method. */
export const proxyPathItem = (problem: Problem): Record<string, Record<string, unknown>> => {
  const operation = (method: string) => ({
    operationId: `connectorProxy.${method}`,
    summary: `Proxy a ${method.toUpperCase()} request of a connector to an external API`,
    description: DESCRIPTION,
    tags: ['Connector proxy'],
    'x-required-role': 'platform:read',
    'x-required-roles': ['platform:read'],
    ...(method === 'get' || method === 'delete'
      ? {}
      : {
          requestBody: {
            required: false,
            description:
              'Passed to the target as it is (up to 1 MiB is buffered so that a retry can resend it).',
            content: { '*/*': { schema: {} } },
          },
        }),
    responses: {
      '200': {
        ...passedThrough,
        description: `A successful answer of the target. ${passedThrough.description}`,
      },
      default: passedThrough,
      '400': problem(400),
      '401': problem(401),
      '403': problem(403),
      '404': problem(404),
      '413': problem(413),
      '415': problem(415),
      '429': problem(429),
      '502': problem(502),
      '504': problem(504),
    },
  });
  return {
    [PROXY_PATH]: {
      parameters: PARAMETERS,
      get: operation('get'),
      post: operation('post'),
      put: operation('put'),
      patch: operation('patch'),
      delete: operation('delete'),
    },
  };
};
