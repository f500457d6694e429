#!/usr/bin/env node
// The embedded kwok controller as an executable of its own. The binary runtime (and kwokctl, when
// it starts a kwokts cluster) runs this file; kwokctl names pid and log files after the
// executable, so this name gives pids/kwok-controller.pid and logs/kwok-controller.log.
await import('../dist/src/kwok/main.js');
