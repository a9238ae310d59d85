#!/usr/bin/env node
// `npx dbops-mcp`: loads the TypeScript entry through tsx (the workspace runs TS sources as is).
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
