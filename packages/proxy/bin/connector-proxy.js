#!/usr/bin/env node
// Runs the TypeScript sources directly: internal packages export source, not builds.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
