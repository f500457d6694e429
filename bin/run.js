#!/usr/bin/env node
// The Node entry under its earlier name, for scripts that run `node bin/run.js`: bin/run.cjs itself
// (an ES module that imports a CommonJS file runs it as require would), with the start-up of an ES
// module entry on top.
import './run.cjs';
