import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The bin exactly as a user runs it: a child process, no test hooks inside. */
export const BIN = fileURLToPath(new URL('../../bin/connector-cli.js', import.meta.url));

export type CliResult = { code: number | null; stdout: string; stderr: string };

export type RunOptions = {
  /** Extra environment variables; HOME is a fresh empty directory unless given, so no real session leaks in. */
  env?: Record<string, string>;
  cwd?: string;
};

export const tempDir = (prefix = 'connector-cli-test-'): string => mkdtempSync(join(tmpdir(), prefix));

const childEnv = (extra: Record<string, string> = {}): Record<string, string> => ({
  PATH: process.env.PATH ?? '',
  HOME: tempDir('connector-cli-home-'),
  ...extra,
});

export const startCli = (args: readonly string[], options: RunOptions = {}): ChildProcess =>
  spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? tempDir(),
    env: childEnv(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });

export const collect = (child: ChildProcess): Promise<CliResult> =>
  new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });

export const runCli = (args: readonly string[], options: RunOptions = {}): Promise<CliResult> =>
  collect(startCli(args, options));
