/** The docker runtime against a dockerd of the tests' own (test/engines/docker.sh). */
import { containerRuntimeSuite } from './container-runtime-scenario.js';

containerRuntimeSuite('docker');
