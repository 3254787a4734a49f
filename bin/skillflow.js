#!/usr/bin/env node
// Launcher of the skillflow CLI: registers tsx (TypeScript without a build step) in this
// process and runs cli/main.ts, so `npx skillflow ...` and `npm run skillflow -- ...` work.
import { register } from 'tsx/esm/api';

register();
await import(new URL('../cli/main.ts', import.meta.url).href);
