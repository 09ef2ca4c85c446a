import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { testBackends } from '@platform/store/testing';
import { describe, expect, it } from 'vitest';
import { seededPlatform } from '../support/seeded.ts';

const run = promisify(execFile);
const CHROMIUM = '/usr/bin/chromium';

const chromiumAvailable = await run(CHROMIUM, ['--version']).then(
  () => true,
  () => false,
);
if (!chromiumAvailable)
  console.info('[docs test] skipped: Debian chromium is not installed (apt-get install chromium)');

describe.runIf(chromiumAvailable).each((await testBackends()).slice(0, 1))(
  'the API reference on $name',
  (backend) => {
    const s = seededPlatform(backend);

    it('renders in headless Chromium with every endpoint, without internet access', async () => {
      const profile = await mkdtemp(join(tmpdir(), 'chromium-'));
      try {
        const { stdout } = await run(
          CHROMIUM,
          [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            `--user-data-dir=${profile}`,
            '--virtual-time-budget=15000',
            '--dump-dom',
            `${s.tp.url}/docs`,
          ],
          { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
        );
        const paths = [...stdout.matchAll(/class="opblock-summary-path" data-path="([^"]+)"/g)].map(
          (m) => m[1],
        );
        expect(paths).toContain('/api/v1/subscriptions/{subscriptionId}/renders');
        expect(paths).toContain('/api/v1/subscriptions/{subscriptionId}/external-idp-domains');
        expect(paths).toContain('/api/ping');
      } finally {
        await rm(profile, { recursive: true, force: true });
      }
    }, 90_000);
  },
);
