/**
 * The variable through which kwokts gives the kwok controller it runs a stable identity (its node
 * leases' holder, its events' source), so that after a restart it still holds its leases instead
 * of waiting for them to expire. A variable, not a flag: Go's kwok has no --id flag and stops at an
 * unknown one, and a kwokctl user may run Go's kwok as the controller (--kwok-controller-image,
 * --kwok-controller-binary); a variable it does not know it ignores. Our controller's --id flag,
 * when given, wins over it.
 */
export const CONTROLLER_ID_ENV = 'KWOKTS_CONTROLLER_ID';

/**
 * The CA whose client certificates our controller's server requires (its --client-ca-file), by
 * variable for the same reason: Go's kwok has no such flag, and serves without it.
 */
export const CLIENT_CA_FILE_ENV = 'KWOKTS_CLIENT_CA_FILE';
