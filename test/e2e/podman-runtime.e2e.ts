/** The podman runtime against podman's API service of the tests' own (test/engines/podman.sh). */
import { containerRuntimeSuite } from './container-runtime-scenario.js';

containerRuntimeSuite('podman');
