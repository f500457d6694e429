#!/usr/bin/env -S node --import tsx
// Runs the CLI from TypeScript sources without a build (development only).
import { main } from '../src/cli/main.ts';

await main(process.argv.slice(2), import.meta.url);
