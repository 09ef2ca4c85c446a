#!/usr/bin/env node
// The CLI is written in TypeScript and shipped as source, like every package of this workspace:
// tsx compiles it on the fly so the bin needs no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
