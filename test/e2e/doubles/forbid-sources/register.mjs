// `node --import` this file (NODE_OPTIONS reaches it through bin/kwokts) to make a command fail
// when it loads what it should not:
// - KWOKTS_TEST_FORBIDDEN_SOURCES (comma-separated, as esbuild names sources in its `// path`
//   comments: `node_modules/yaml/dist/`, `src/components/prometheus.ts`): loading a file that
//   bundles one fails the import;
// - KWOKTS_TEST_FORBIDDEN_BUILTINS (`crypto,child_process`): a Node built-in module loaded by
//   the time the process exits makes it exit 98, naming it.
// See kwoktsInstalled(..., { forbidSources, forbidBuiltins }) in test/e2e/harness.ts.
import { register } from 'node:module';

const list = (name) => (process.env[name] ?? '').split(',').filter((s) => s !== '');

register('./hooks.mjs', import.meta.url, { data: list('KWOKTS_TEST_FORBIDDEN_SOURCES') });

const builtins = list('KWOKTS_TEST_FORBIDDEN_BUILTINS');
if (builtins.length > 0) {
  // What Node had loaded before the command's own code ran (this hook's own needs) does not count.
  const before = new Set(process.moduleLoadList);
  process.on('exit', () => {
    const loaded = builtins.filter((name) => process.moduleLoadList.includes(`NativeModule ${name}`) && !before.has(`NativeModule ${name}`));
    if (loaded.length === 0) return;
    process.stderr.write(`loaded Node built-in modules this command must not load: ${loaded.join(', ')}\n`);
    process.exitCode = 98;
  });
}
