import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ALL_TYPES, allowedPairs, authData, SECRETS, writeFiles } from './helpers/fixtures.ts';
import { type RecordingServer, startRecordingServer } from './helpers/recording-server.ts';
import { type CliResult, runCli } from './helpers/run-cli.ts';

/** A misbehaving server that echoes the request body in its error: even then nothing secret is printed. */
let echoing: RecordingServer;
let recorder: RecordingServer;
beforeAll(async () => {
  recorder = await startRecordingServer();
  echoing = await startRecordingServer((request, response) => {
    response.writeHead(400, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        status: 400,
        detail: `Rejected ${request.body} with ${request.headers.authorization}`,
        received: request.json,
      }),
    );
  });
});
afterAll(async () => {
  await recorder.close();
  await echoing.close();
});

const expectNoSecret = (result: CliResult): void => {
  const output = result.stdout + result.stderr;
  for (const secret of Object.values(SECRETS)) expect(output).not.toContain(secret);
};

const argsFor = (type: string, usage: string, port: number, file: string) => [
  'set-auth',
  '-e',
  'acme-prod',
  '-b',
  `http://acme-prod.localhost:${port}/grafx`,
  '-au',
  usage,
  '-at',
  type,
  '--connectorId',
  'X',
  '--auth-data-file',
  file,
  '--token',
  SECRETS.token,
];

const firstPairOf = (type: string) => allowedPairs.find(([candidate]) => candidate === type)!;

describe.concurrent('no secret is ever printed', () => {
  test.each(ALL_TYPES)('--dry-run of %s shows the request masked and sends nothing', async (type) => {
    const [, usage] = firstPairOf(type);
    const dir = writeFiles({ 'data.json': authData[type] });
    const before = recorder.requests.length;
    const result = await runCli([
      '--dry-run',
      ...argsFor(type, usage, recorder.port, join(dir, 'data.json')),
    ]);
    expect(result.code).toBe(0);
    expect(recorder.requests.length).toBe(before);
    expect(result.stdout).toContain('dry run: nothing was sent');
    expect(result.stdout).toContain(
      `PUT http://acme-prod.localhost:${recorder.port}/grafx/api/v1/environment/acme-prod/connectors/X/auth/`,
    );
    expect(result.stdout).toContain('Authorization: Bearer ***');
    expect(result.stdout).toContain('********');
    expectNoSecret(result);
  });

  test.each(ALL_TYPES)('--verbose of %s, success and server error', async (type) => {
    const [, usage] = firstPairOf(type);
    const dir = writeFiles({ 'data.json': authData[type] });
    const ok = await runCli(['--verbose', ...argsFor(type, usage, recorder.port, join(dir, 'data.json'))]);
    expect(ok.code).toBe(0);
    expect(ok.stderr).toContain('< HTTP 200 OK');
    expectNoSecret(ok);
    const failed = await runCli(['--verbose', ...argsFor(type, usage, echoing.port, join(dir, 'data.json'))]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('HTTP 400 Bad Request');
    expectNoSecret(failed);
  });

  test('--dry-run --json is one JSON document, masked', async () => {
    const dir = writeFiles({ 'data.json': authData.oAuth2JwtBearer });
    const result = await runCli([
      '--dry-run',
      '--json',
      ...argsFor('oAuth2JwtBearer', 'server', recorder.port, join(dir, 'data.json')),
    ]);
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout);
    expect(printed.request.method).toBe('PUT');
    expect(printed.request.headers.Authorization).toBe('Bearer ***');
    expect(printed.request.body.signatureConfig.privateKey).toBe('********');
    // Sealed by the server like the other secret fields: each claim is named, none of their values shown.
    expect(printed.request.body.jwtPayload).toEqual(
      Object.fromEntries(['iss', 'sub', 'exp', 'admin'].map((name) => [name, '********'])),
    );
    expectNoSecret(result);
  });

  test('--dry-run works without a token', async () => {
    const dir = writeFiles({ 'data.json': authData.staticKey });
    const args = argsFor('staticKey', 'server', recorder.port, join(dir, 'data.json')).slice(0, -2);
    const result = await runCli(['--dry-run', ...args]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Authorization: (none: run connector-cli login or pass --token)');
  });
});
