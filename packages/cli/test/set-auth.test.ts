import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { allowedPairs, authData, connectorPackage, kinds, SECRETS, writeFiles } from './helpers/fixtures.ts';
import { startRecordingServer } from './helpers/recording-server.ts';
import { runCli } from './helpers/run-cli.ts';
import { type CliTarget, recordingTarget } from './helpers/target.ts';

let target: CliTarget;
beforeAll(async () => {
  target = await recordingTarget();
});
afterAll(() => target.close());

const setAuthArgs = (type: string, usage: string, file: string): string[] => [
  'set-auth',
  '-e',
  target.environment,
  '-b',
  target.baseUrl,
  '-au',
  usage,
  '-at',
  type,
  '--connectorId',
  target.connectorId,
  '--auth-data-file',
  file,
];

/** The request the recorder saw for this command; undefined against a server that does not record. */
const lastRequestTo = (path: string) => target.requests?.filter((request) => request.url === path).at(-1);

describe('set-auth sends PUT .../auth/{kind} for every type and usage it allows', () => {
  test.each(allowedPairs)('%s for %s usage', async (type, usage) => {
    const dir = writeFiles({ 'data.json': authData[type] });
    const result = await runCli([
      ...setAuthArgs(type, usage, join(dir, 'data.json')),
      '--token',
      target.token,
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(
        `^Set ${usage} authorization of connector ${target.connectorId} in acme-prod to ${type} as ".+"\\.\\n$`,
      ),
    );
    const path = `/grafx/api/v1/environment/acme-prod/connectors/${target.connectorId}/auth/${kinds[type]}`;
    const request = lastRequestTo(path);
    if (target.requests === undefined) return;
    expect(request?.method).toBe('PUT');
    expect(request?.headers.authorization).toBe(`Bearer ${target.token}`);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers.host).toBe(new URL(target.baseUrl).host);
    expect(request?.json).toEqual({ usage, ...authData[type] });
  });

  test('YAML data file, --name, the project check and the token from CONNECTOR_CLI_TOKEN', async () => {
    const dir = writeFiles({ 'data.yaml': toYaml(authData.oAuth2ResourceOwnerPassword) });
    mkdirSync(join(dir, 'project'));
    writeFileSync(
      join(dir, 'project', 'package.json'),
      JSON.stringify(connectorPackage(['oAuth2ResourceOwnerPassword'])),
    );
    const result = await runCli(
      [
        ...setAuthArgs('oAuth2ResourceOwnerPassword', 'server', join(dir, 'data.yaml')),
        '--name',
        'Integration user',
        'project',
      ],
      { cwd: dir, env: { CONNECTOR_CLI_TOKEN: target.token } },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('as "Integration user"');
    const request = lastRequestTo(
      `/grafx/api/v1/environment/acme-prod/connectors/${target.connectorId}/auth/oauth-resource-owner-password`,
    );
    if (target.requests === undefined) return;
    expect(request?.json).toEqual({
      usage: 'server',
      name: 'Integration user',
      ...authData.oAuth2ResourceOwnerPassword,
    });
    expect(request?.headers.authorization).toBe(`Bearer ${target.token}`);
  });

  test('the default project "." is used when it holds a package.json', async () => {
    const dir = writeFiles({
      'package.json': connectorPackage(['staticKey']),
      'data.json': authData.staticKey,
    });
    const ok = await runCli([...setAuthArgs('staticKey', 'browser', 'data.json'), '--token', target.token], {
      cwd: dir,
    });
    expect(ok.code).toBe(0);
    const refused = await runCli(
      [...setAuthArgs('oAuth2JwtBearer', 'browser', 'data.json'), '--token', target.token],
      { cwd: dir },
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/-at oAuth2JwtBearer is not in config\.supportedAuth/);
  });

  test('--json prints the server answer as JSON', async () => {
    const dir = writeFiles({ 'data.json': authData.staticKey });
    const result = await runCli([
      '--json',
      ...setAuthArgs('staticKey', 'server', join(dir, 'data.json')),
      '--token',
      target.token,
    ]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ type: 'staticKey', usage: 'server' });
  });
});

describe('names under .localhost reach loopback (RFC 6761)', () => {
  test('-b http://acme-prod.localhost:<port>/grafx reaches 127.0.0.1 and keeps the Host header', async () => {
    const server = await startRecordingServer();
    try {
      const dir = writeFiles({ 'data.json': authData.staticKey });
      const result = await runCli([
        'set-auth',
        '-e',
        'acme-prod',
        '-b',
        `http://acme-prod.localhost:${server.port}/grafx`,
        '-au',
        'server',
        '-at',
        'staticKey',
        '--connectorId',
        'X',
        '--auth-data-file',
        join(dir, 'data.json'),
        '--token',
        SECRETS.token,
      ]);
      expect(result.code).toBe(0);
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]?.headers.host).toBe(`acme-prod.localhost:${server.port}`);
      expect(server.requests[0]?.url).toBe('/grafx/api/v1/environment/acme-prod/connectors/X/auth/static');
    } finally {
      await server.close();
    }
  });
});

describe('failures of the request (exit 1)', () => {
  const problem = {
    type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
    title: 'Bad Request',
    status: 400,
    detail:
      'The connector does not support staticKey: add it to config.supportedAuth in package.json and publish again.',
    errors: { type: ['staticKey is not in the connector supportedAuth (none)'] },
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  };

  const run = async (extra: string[], port: number) => {
    const dir = writeFiles({ 'data.json': authData.staticKey });
    return runCli([
      'set-auth',
      '-e',
      'acme-prod',
      '-b',
      `http://acme-prod.localhost:${port}/grafx`,
      '-au',
      'server',
      '-at',
      'staticKey',
      '--connectorId',
      'X',
      '--auth-data-file',
      join(dir, 'data.json'),
      '--token',
      SECRETS.token,
      ...extra,
    ]);
  };

  test('a ProblemDetails answer prints its detail; --verbose adds the status and the whole body', async () => {
    const server = await startRecordingServer((_request, response) => {
      response.writeHead(400, { 'content-type': 'application/problem+json' });
      response.end(JSON.stringify(problem));
    });
    try {
      const plain = await run([], server.port);
      expect(plain.code).toBe(1);
      expect(plain.stderr).toBe(`error: ${problem.detail}\n`);
      const verbose = await run(['--verbose'], server.port);
      expect(verbose.code).toBe(1);
      expect(verbose.stderr).toContain(`error: ${problem.detail}\n`);
      expect(verbose.stderr).toContain('HTTP 400 Bad Request');
      expect(verbose.stderr).toContain('"traceId": "4bf92f3577b34da6a3ce929d0e0e4736"');
      expect(verbose.stderr).toContain('staticKey is not in the connector supportedAuth (none)');
    } finally {
      await server.close();
    }
  });

  test('401 says how to get a token', async () => {
    const server = await startRecordingServer((_request, response) => {
      response.writeHead(401, {
        'content-type': 'application/json',
        'www-authenticate': 'Bearer error="invalid_token"',
      });
      response.end(JSON.stringify({ status: 401, title: 'Unauthorized', detail: 'The token has expired.' }));
    });
    try {
      const result = await run([], server.port);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        'error: The token has expired; run connector-cli login again, or pass a valid --token\n',
      );
    } finally {
      await server.close();
    }
  });

  test('403 says how to get the access it names; --json carries the status and the server’s code', async () => {
    const server = await startRecordingServer((_request, response) => {
      response.writeHead(403, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          status: 403,
          title: 'Forbidden',
          code: 'FORBIDDEN',
          detail: "This operation needs the token role 'platform:write'.",
        }),
      );
    });
    try {
      const plain = await run([], server.port);
      expect(plain.code).toBe(1);
      expect(plain.stderr).toBe(
        "error: This operation needs the token role 'platform:write'; use a token with that role (connector-cli login, or --token), or ask a subscription owner for access to the environment\n",
      );
      const json = await run(['--json'], server.port);
      expect(json.code).toBe(1);
      expect(JSON.parse(json.stderr)).toEqual({
        error: {
          code: 'SERVER_ERROR',
          message: plain.stderr.slice('error: '.length, -1),
          status: 403,
          serverCode: 'FORBIDDEN',
        },
      });
    } finally {
      await server.close();
    }
  });

  test('an unreachable server', async () => {
    const server = await startRecordingServer();
    await server.close();
    const result = await run([], server.port);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^error: could not reach http:\/\/acme-prod\.localhost:\d+ \(.*ECONNREFUSED.*\); check -b/,
    );
  });
});
