/**
 * The kwok controller as it runs in a Pod, for e2e tests on the host: same entry as
 * src/kwok/main.ts, but the service-account directory (token, ca.crt, namespace) is read under
 * $KWOKTS_E2E_SA_ROOT instead of /, so a test can hand it exactly the credentials a Pod of the
 * manifest's ServiceAccount would get. KUBERNETES_SERVICE_HOST/PORT come from the environment.
 * Not a user-facing feature: users get the real in-cluster path or --kubeconfig.
 */
import { KwoktsError, describeUnknown } from '../../src/util/errors.js';
import { runKwokController } from '../../src/kwok/index.js';

const root = process.env['KWOKTS_E2E_SA_ROOT'];
if (!root) throw new Error('KWOKTS_E2E_SA_ROOT is not set');
const abort = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => abort.abort());

try {
  await runKwokController(process.argv.slice(2), { signal: abort.signal, serviceAccountRoot: root });
} catch (error) {
  process.stderr.write(`error: ${describeUnknown(error)}\n`);
  process.exitCode = KwoktsError.is(error) ? error.exitCode : 70;
}
