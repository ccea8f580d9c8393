#!/usr/bin/env node
// The `lawrisk` command line. tsx (a runtime dependency) compiles the TypeScript on the fly, so a
// fresh clone runs it after `npm install` with nothing built by hand.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
await main();
