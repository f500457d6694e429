/**
 * The in-cluster manifests (templates/deploy): kwok.yaml (Stage CRD, ServiceAccount, RBAC,
 * Service, Deployment) and stage-fast.yaml (the default Stages), rendered with the controller
 * image pinned to this version. The templates are what a user could apply by hand; rendering only
 * swaps the image reference.
 */
import { readFileSync } from 'node:fs';
import { parseK8sYamlDocuments } from '../gocompat/yaml/index.js';
import type { KubeObject } from '../kube/index.js';
import { templatePath } from '../util/package-root.js';
import { DEFAULT_KWOK_CONTROLLER_IMAGE, KWOK_CONTROLLER_IMAGE_REPOSITORY } from '../artifacts/images.js';

export const DEPLOY_MANIFEST_FILES = { kwok: 'kwok.yaml', stages: 'stage-fast.yaml' } as const;

export interface RenderDeployOptions {
  /** Include stage-fast.yaml (default true). */
  stages?: boolean;
  /** Another image (a mirror); default: the pinned controller image. */
  image?: string;
  /**
   * Replicas of the Deployment (default 1). Above 1 they run as shards (--shard) instead of a
   * leader and standbys: every replica manages its share of the nodes, and may list and delete
   * Leases in kube-node-lease (the shard membership).
   */
  replicas?: number;
}

/** The Deployment's replica count and, above 1, shards instead of leader election. */
function withReplicas(kwok: string, replicas: number): string {
  const swap = (text: string, from: RegExp, to: string): string => {
    if (!from.test(text)) throw new Error(`templates/deploy/${DEPLOY_MANIFEST_FILES.kwok} has no ${String(from)}`);
    return text.replace(from, to);
  };
  let out = swap(kwok, /^(\s*)replicas: 1$/m, `$1replicas: ${replicas}`);
  if (replicas === 1) return out;
  out = swap(out, /^(\s*)- --leader-elect=true$/m, '$1- --shard=true');
  out = swap(out, /^(\s*)verbs: \[get, create, update\]$/m, '$1verbs: [get, list, create, update, delete]');
  return out;
}

export function readDeployTemplate(file: string): string {
  return readFileSync(templatePath('deploy', file), 'utf8');
}

/** kwok.yaml with the controller image set; stage-fast.yaml appended unless turned off. */
export function renderDeployManifests(options: RenderDeployOptions = {}): string {
  const image = options.image ?? DEFAULT_KWOK_CONTROLLER_IMAGE;
  const pattern = new RegExp(`^(\\s*image:\\s*)${KWOK_CONTROLLER_IMAGE_REPOSITORY.replace(/[.]/g, '\\.')}:\\S+\\s*$`, 'gm');
  const kwok = readDeployTemplate(DEPLOY_MANIFEST_FILES.kwok);
  if (!pattern.test(kwok)) throw new Error(`templates/deploy/${DEPLOY_MANIFEST_FILES.kwok} names no ${KWOK_CONTROLLER_IMAGE_REPOSITORY} image`);
  const replicas = options.replicas ?? 1;
  if (!Number.isInteger(replicas) || replicas < 1) throw new Error(`replicas must be a positive integer, got ${replicas}`);
  const pinned = withReplicas(kwok.replace(pattern, (_line, prefix: string) => `${prefix}${image}`), replicas);
  if (options.stages === false) return pinned;
  const stages = readDeployTemplate(DEPLOY_MANIFEST_FILES.stages);
  return `${pinned.endsWith('\n') ? pinned : `${pinned}\n`}---\n${stages}`;
}

/** The objects of rendered manifests, in order (empty documents dropped). */
export function deployObjects(text: string): KubeObject[] {
  return parseK8sYamlDocuments(text).filter((doc): doc is KubeObject => typeof doc === 'object' && doc !== null && 'kind' in doc);
}
