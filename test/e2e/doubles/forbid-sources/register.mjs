// `node --import` this file (NODE_OPTIONS reaches it through bin/kwokts) to make a command fail
// when it loads any file that bundles one of the sources named in KWOKTS_TEST_FORBIDDEN_SOURCES
// (comma-separated, as esbuild names them in its `// path` comments: `node_modules/yaml/dist/`,
// `src/components/prometheus.ts`). See kwoktsInstalled(..., { forbidSources }) in test/e2e/harness.ts.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url, { data: (process.env.KWOKTS_TEST_FORBIDDEN_SOURCES ?? '').split(',').filter((s) => s !== '') });
