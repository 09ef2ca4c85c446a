import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { contractFile, renderContract } from '../scripts/contract.ts';

it('src/contract.generated.ts matches the operation table and the models (else: npm run generate -w @platform/client)', async () => {
  expect(readFileSync(contractFile, 'utf8')).toBe(await renderContract());
}, 180_000);
