import { Flags } from '@oclif/core';
import { DEFAULT_FILTER } from './k8s-format.js';

/** Flags every snapshot verb shares, kwokctl's names and defaults. */
export const snapshotFlags = {
  path: Flags.string({ description: 'snapshot file', required: true }),
  format: Flags.string({ description: 'etcd (an etcd snapshot) or k8s (a YAML stream of objects)', options: ['etcd', 'k8s'], default: 'etcd' }),
  filter: Flags.string({ description: 'resources of a k8s snapshot (name, name.group or name.version.group; repeatable or comma-separated)', multiple: true, delimiter: ',', default: [...DEFAULT_FILTER] }),
};
