/**
 * The kwok controller's container image, pinned to this package's version: one place derives the
 * tag from package.json ("0.1.0" -> ghcr.io/kwokts/kwok:v0.1.0), so the manifests `kwokts deploy`
 * applies always name the controller that matches the CLI.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../util/package-root.js';

export const CONTROLLER_IMAGE_REPOSITORY = 'ghcr.io/kwokts/kwok';

let version: string | undefined;

/** This package's version, from its package.json. */
export function kwoktsVersion(): string {
  if (version) return version;
  const manifest = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: unknown };
  if (typeof manifest.version !== 'string' || manifest.version === '') throw new Error('package.json has no version');
  version = manifest.version;
  return version;
}

/** The image tag: "v" + the package version, as kwok tags its images. */
export function controllerImageTag(): string {
  return `v${kwoktsVersion()}`;
}

/** The full image reference of the controller, e.g. ghcr.io/kwokts/kwok:v0.1.0. */
export function controllerImage(): string {
  return `${CONTROLLER_IMAGE_REPOSITORY}:${controllerImageTag()}`;
}
