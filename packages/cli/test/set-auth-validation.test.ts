import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { authData, connectorPackage, SECRETS, writeFiles } from './helpers/fixtures.ts';
import { startRecordingServer } from './helpers/recording-server.ts';
import { runCli, tempDir } from './helpers/run-cli.ts';

type Case = {
  name: string;
  /** `base` is a valid `-b` for the recording server; `dir` holds the files the case wrote. */
  args: (ctx: { base: string; dir: string; port: number }) => string[];
  files?: Record<string, string | object>;
  /** A connector project written into `dir/project` (its package.json). */
  project?: string | object;
  env?: (dir: string) => Record<string, string>;
  stderr: RegExp;
};

const staticFile = { 'static.json': authData.staticKey };

/** A complete, valid command line; each case overrides what it tests. */
const valid = (base: string, dir: string, overrides: Record<string, string | null> = {}): string[] => {
  const options: Record<string, string | null> = {
    '--connectorId': 'c0ffee00-0000-4000-8000-000000000001',
    '-e': 'acme-prod',
    '-b': base,
    '-au': 'server',
    '-at': 'staticKey',
    '--auth-data-file': join(dir, 'static.json'),
    '--token': SECRETS.token,
    ...overrides,
  };
  return [
    'set-auth',
    ...Object.entries(options).flatMap(([flag, value]) => (value === null ? [] : [flag, value])),
  ];
};

const cases: Case[] = [
  {
    name: 'every required option missing',
    args: () => ['set-auth'],
    stderr:
      /^error: missing required options --connectorId <id>, -e <environment>, -b <baseUrl>, -au <browser\|server>, -at <type>, --auth-data-file <file>; see connector-cli set-auth --help$/,
  },
  {
    name: 'one required option missing',
    files: staticFile,
    args: ({ base, dir }) => valid(base, dir, { '--connectorId': null }),
    stderr: /missing required option --connectorId <id>/,
  },
  {
    name: 'a missing option is reported before a bad -au',
    args: ({ base, dir }) => valid(base, dir, { '-au': 'printer', '--auth-data-file': null }),
    stderr: /missing required option --auth-data-file/,
  },
  {
    name: '-au value',
    files: staticFile,
    args: ({ base, dir }) => valid(base, dir, { '-au': 'printer' }),
    stderr: /^error: -au must be browser or server, got "printer"; use -au browser or -au server$/,
  },
  {
    name: '-at value',
    files: staticFile,
    args: ({ base, dir }) => valid(base, dir, { '-at': 'basic' }),
    stderr: /-at "basic" is not an authorization type; use one of staticKey, oAuth2ClientCredentials/,
  },
  {
    name: '-at value in the wrong case',
    files: staticFile,
    args: ({ base, dir }) => valid(base, dir, { '-at': 'statickey' }),
    stderr: /use -at staticKey \(the value is case-sensitive\)/,
  },
  {
    name: 'authorization code with server usage',
    files: staticFile,
    args: ({ base, dir }) => valid(base, dir, { '-at': 'oAuth2AuthorizationCode', '-b': 'ftp://nowhere' }),
    stderr: /^error: -at oAuth2AuthorizationCode supports only -au browser; use -au browser$/,
  },
  {
    name: '-b that is not a URL',
    files: staticFile,
    args: ({ dir, base }) => valid(base, dir, { '-b': 'acme-prod.example.com/grafx' }),
    stderr: /-b must look like https:\/\/<environment>\.<domain>\/<prefix>.*is not a URL/,
  },
  {
    name: '-b with another scheme',
    files: staticFile,
    args: ({ dir, base }) => valid(base, dir, { '-b': 'ftp://acme-prod.example.com/grafx' }),
    stderr: /got the scheme "ftp"/,
  },
  {
    name: '-b whose first label is another environment',
    files: staticFile,
    args: ({ dir, port, base }) => valid(base, dir, { '-b': `http://acme-sandbox.localhost:${port}/grafx` }),
    stderr:
      /-e acme-prod does not match the environment "acme-sandbox" in -b .*; use the same environment in both/,
  },
  {
    name: '-e compared case-insensitively, but still different',
    files: staticFile,
    args: ({ dir, base }) => valid(base, dir, { '-e': 'ACME-PRODUCTION' }),
    stderr: /-e ACME-PRODUCTION does not match the environment "acme-prod"/,
  },
  {
    name: '-b over http to a public host',
    files: staticFile,
    args: ({ dir, base }) => valid(base, dir, { '-b': 'http://acme-prod.example.com/grafx' }),
    stderr: /-b must use https for acme-prod\.example\.com; http is allowed only for localhost/,
  },
  {
    name: '-b by an IP address other than loopback',
    files: staticFile,
    args: ({ dir, port, base }) => valid(base, dir, { '-b': `https://10.1.2.3:${port}/grafx` }),
    stderr: /cannot carry the environment; use a name such as http:\/\/acme-prod\.localhost:\d+\/grafx/,
  },
  {
    name: '-b without an environment label',
    files: staticFile,
    args: ({ dir, base }) => valid(base, dir, { '-b': 'https://intranet/grafx' }),
    stderr: /has no environment label/,
  },
  {
    name: '-b without a prefix',
    files: staticFile,
    args: ({ dir, port, base }) => valid(base, dir, { '-b': `http://acme-prod.localhost:${port}/` }),
    stderr: /add the API prefix to -b, e\.g\. http:\/\/acme-prod\.localhost:\d+\/grafx/,
  },
  {
    name: 'a bad -b is reported before the project',
    files: staticFile,
    project: connectorPackage(['oAuth2ClientCredentials']),
    args: ({ dir, base }) => [
      ...valid(base, dir, { '-b': 'http://acme-prod.example.com/grafx' }),
      join(dir, 'project'),
    ],
    stderr: /-b must use https/,
  },
  {
    name: 'type not in config.supportedAuth',
    files: staticFile,
    project: connectorPackage(['oAuth2ClientCredentials']),
    args: ({ base, dir }) => [...valid(base, dir), join(dir, 'project')],
    stderr:
      /-at staticKey is not in config\.supportedAuth of .*package\.json \(oAuth2ClientCredentials\); add it there and publish the connector again/,
  },
  {
    name: 'the project is checked before the data file',
    project: connectorPackage(['oAuth2ClientCredentials']),
    args: ({ base, dir }) => [
      ...valid(base, dir, { '--auth-data-file': join(dir, 'absent.json') }),
      join(dir, 'project'),
    ],
    stderr: /is not in config\.supportedAuth/,
  },
  {
    name: 'package.json without config.supportedAuth',
    files: staticFile,
    project: { name: 'x', version: '1.0.0' },
    args: ({ base, dir }) => [...valid(base, dir), join(dir, 'project')],
    stderr: /has no config\.supportedAuth; add "supportedAuth": \["staticKey"\] to its "config"/,
  },
  {
    name: 'package.json that is not JSON',
    files: staticFile,
    project: '{ "name": ',
    args: ({ base, dir }) => [...valid(base, dir), join(dir, 'project')],
    stderr: /package\.json is not valid JSON .*; fix the file/,
  },
  {
    name: 'a named project directory that does not exist',
    files: staticFile,
    args: ({ base, dir }) => [...valid(base, dir), join(dir, 'nowhere')],
    stderr: /the project directory .*nowhere does not exist/,
  },
  {
    name: 'the data file does not exist',
    args: ({ base, dir }) => valid(base, dir, { '--auth-data-file': join(dir, 'absent.json') }),
    stderr: /--auth-data-file .*absent\.json does not exist; check the path/,
  },
  {
    name: 'the data file is not JSON (and its text is not quoted)',
    files: { 'static.json': `{"key": "X-Api-Key", "value": ${SECRETS.staticValue}}` },
    args: ({ base, dir }) => valid(base, dir),
    stderr: /static\.json is not valid JSON \(syntax error.*\); fix the file/,
  },
  {
    name: 'the data file is not YAML',
    files: { 'static.yaml': 'key: [unclosed\nvalue: x\n' },
    args: ({ base, dir }) => valid(base, dir, { '--auth-data-file': join(dir, 'static.yaml') }),
    stderr: /static\.yaml is not valid YAML/,
  },
  {
    name: 'the data file has an unknown field',
    files: { 'static.json': { ...authData.staticKey, header: 'x' } },
    args: ({ base, dir }) => valid(base, dir),
    stderr: /static\.json: unknown field header; the staticKey fields are key, value, name; remove it/,
  },
  {
    name: 'a misspelt field is named as unknown',
    files: {
      'cc.json': {
        clientId: 'cli',
        clientSecert: SECRETS.clientSecret,
        tokenEndpoint: 'https://login.example.com/token',
      },
    },
    args: ({ base, dir }) =>
      valid(base, dir, { '-at': 'oAuth2ClientCredentials', '--auth-data-file': join(dir, 'cc.json') }),
    stderr: /unknown field clientSecert;/,
  },
  {
    name: 'a nested unknown field',
    files: {
      'code.json': {
        ...authData.oAuth2AuthorizationCode,
        authorizationServerMetadata: {
          ...(authData.oAuth2AuthorizationCode.authorizationServerMetadata as object),
          issuer: 'https://login.example.com',
        },
      },
    },
    args: ({ base, dir }) =>
      valid(base, dir, {
        '-au': 'browser',
        '-at': 'oAuth2AuthorizationCode',
        '--auth-data-file': join(dir, 'code.json'),
      }),
    stderr: /unknown field authorizationServerMetadata\.issuer; remove it/,
  },
  {
    name: 'a required field missing from the data file',
    files: { 'pw.json': { ...authData.oAuth2ResourceOwnerPassword, password: undefined } },
    args: ({ base, dir }) =>
      valid(base, dir, { '-at': 'oAuth2ResourceOwnerPassword', '--auth-data-file': join(dir, 'pw.json') }),
    stderr: /pw\.json: password is required for oAuth2ResourceOwnerPassword; add it/,
  },
  {
    name: 'a field of the wrong form',
    files: { 'cc.yml': 'clientId: cli\nclientSecret: s3cr3t-value\ntokenEndpoint: not a url\n' },
    args: ({ base, dir }) =>
      valid(base, dir, { '-at': 'oAuth2ClientCredentials', '--auth-data-file': join(dir, 'cc.yml') }),
    stderr: /cc\.yml: tokenEndpoint: an absolute http\(s\) URL; fix it/,
  },
  {
    name: 'a data file that is not an object',
    files: { 'static.json': '["X-Api-Key"]' },
    args: ({ base, dir }) => valid(base, dir),
    stderr: /must hold an object with the staticKey fields/,
  },
  {
    name: 'an unknown option',
    files: staticFile,
    args: ({ base, dir }) => [...valid(base, dir), '--colour'],
    stderr: /^error: unknown option '--colour'.*; see connector-cli set-auth --help$/,
  },
  {
    name: 'no token, no environment variable, no session',
    files: staticFile,
    args: ({ base, dir }) => valid(base, dir, { '--token': null }),
    stderr:
      /^error: no token: run connector-cli login --issuer <url> --client-id <id> first, or pass --token/,
  },
  {
    name: 'an expired session',
    files: staticFile,
    env: (dir) => {
      const home = join(dir, 'home');
      mkdirSync(join(home, '.config', 'connector-cli'), { recursive: true });
      const session = {
        issuer: 'https://login.example.com/',
        clientId: 'connector-cli',
        accessToken: SECRETS.token,
        expiresAt: Math.floor(Date.now() / 1000) - 60,
        savedAt: Math.floor(Date.now() / 1000) - 3600,
      };
      writeFileSync(join(home, '.config', 'connector-cli', 'session.json'), JSON.stringify(session));
      return { HOME: home };
    },
    args: ({ base, dir }) => valid(base, dir, { '--token': null }),
    stderr:
      /the session saved by connector-cli login expired at .*; run connector-cli login --issuer https:\/\/login\.example\.com\/ --client-id connector-cli again/,
  },
];

describe.concurrent('set-auth refuses bad input before sending anything (exit 2)', () => {
  test.each(cases)('$name', async (testCase) => {
    const server = await startRecordingServer();
    try {
      const dir = testCase.files ? writeFiles(testCase.files) : tempDir();
      if (testCase.project !== undefined) {
        mkdirSync(join(dir, 'project'));
        const content = testCase.project;
        writeFileSync(
          join(dir, 'project', 'package.json'),
          typeof content === 'string' ? content : JSON.stringify(content),
        );
      }
      const base = `http://acme-prod.localhost:${server.port}/grafx`;
      const result = await runCli(testCase.args({ base, dir, port: server.port }), {
        ...(testCase.env ? { env: testCase.env(dir) } : {}),
        cwd: dir,
      });
      expect(result.code).toBe(2);
      const lines = result.stderr.split('\n').filter((line) => line !== '');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(testCase.stderr);
      expect(result.stdout).toBe('');
      expect(server.requests).toEqual([]);
      for (const secret of Object.values(SECRETS)) expect(result.stderr).not.toContain(secret);
    } finally {
      await server.close();
    }
  });
});
