#!/usr/bin/env node
import { main } from '../dist/src/cli/main.js';

await main(process.argv.slice(2), import.meta.url);
