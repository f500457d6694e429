import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { OPTION_SPECS, type ClusterOptionValues } from '../config/options.js';
import { DEFAULT_KUBE_VERSION, isVersion } from '../config/versions.js';
import { UsageError } from '../util/errors.js';
import { PORT_OPTIONS, PORT_TABLE, type ComponentName } from '../components/index.js';

type Given = Partial<Record<keyof ClusterOptionValues, unknown>>;

/** The option's name as the user gave it: the flag if given, else the variable if set, else the config field. */
export function optionSource(key: keyof ClusterOptionValues, flags: Given, env: NodeJS.ProcessEnv): string {
  const spec = OPTION_SPECS.find((s) => s.key === key);
  if (spec?.flag && flags[key] !== undefined) return `--${spec.flag}`;
  if (spec?.env && env[spec.env] !== undefined) return spec.env;
  return `options.${key} in the config file`;
}


/**
 * The versions that pick what is downloaded or built (the others are of components kwokts does
 * not run, and are only warned about).
 */
const VERSION_OPTIONS = ['kubeVersion', 'etcdVersion', 'prometheusVersion', 'jaegerVersion', 'metricsServerVersion', 'schedulerPluginsVersion'] as const satisfies ReadonlyArray<keyof ClusterOptionValues>;

/** --build-from-source / KWOK_BUILD_FROM_SOURCE. */
const BUILD_MODES = ['auto', 'never', 'always'] as const;

/**
 * Values that would only fail once a component runs (a port out of range, an address that is
 * not an IP) or once binaries are fetched (a version that is not one, an unknown build mode) are
 * refused before anything is made, naming the flag, variable or field.
 */
export function validateClusterValues(values: ClusterOptionValues, flags: Given, env: NodeJS.ProcessEnv): void {
  for (const key of PORT_OPTIONS) {
    const port = values[key] as number;
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new UsageError(`${optionSource(key, flags, env)}: ${String(port)} is not a port number (0-65535)`, {
        hint: 'use a port between 1 and 65535, or 0 (or leave it unset) to pick a free one',
      });
    }
  }
  for (const key of VERSION_OPTIONS) {
    const version = values[key];
    if (version !== '' && !isVersion(version)) {
      throw new UsageError(`${optionSource(key, flags, env)}: ${JSON.stringify(version)} is not a version`, {
        hint: `give a release version such as ${key === 'etcdVersion' ? '3.6.10-0' : DEFAULT_KUBE_VERSION} (the leading v is optional), or leave it unset for the default`,
      });
    }
  }
  if (!(BUILD_MODES as readonly string[]).includes(values.buildFromSource || 'auto')) {
    throw new UsageError(`${optionSource('buildFromSource', flags, env)}: ${JSON.stringify(values.buildFromSource)} is not a build mode`, { hint: 'use auto, never or always' });
  }
  // Files the cluster copies: a missing one is named with where its path came from, before anything is made.
  for (const key of ['kubeAuditPolicy', 'kubeSchedulerConfig'] as const) {
    const file = values[key];
    if (file !== '' && !existsSync(file)) throw new UsageError(`${optionSource(key, flags, env)}: ${file} does not exist`, { hint: 'give the path of an existing file, or leave it unset' });
  }
  if (values.bindAddress !== '' && isIP(values.bindAddress) === 0) {
    throw new UsageError(`${optionSource('bindAddress', flags, env)}: ${JSON.stringify(values.bindAddress)} is not an IP address`, {
      hint: 'use an IPv4 or IPv6 address such as 127.0.0.1 (the default) or 0.0.0.0',
    });
  }
}

/** The ports the user pinned, for the components that run, each named as the user would (the flag, else the config field). */
export function explicitPortChecks(values: ClusterOptionValues, enabled: ReadonlySet<ComponentName>): Array<{ label: string; port: number }> {
  return PORT_TABLE.flatMap((p) => {
    if (!('option' in p) || !enabled.has(p.component)) return [];
    const port = values[p.option];
    const flag = OPTION_SPECS.find((s) => s.key === p.option)?.flag;
    return port > 0 ? [{ label: flag ? `--${flag}` : `options.${p.option}`, port }] : [];
  });
}
