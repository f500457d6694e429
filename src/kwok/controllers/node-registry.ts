/**
 * The set of nodes this instance manages, shared by the node and pod controllers: pods are played
 * only on nodes that are managed and writable (their lease is ours, or leases are off).
 */
import type { KubeObject } from '../../kube/index.js';

export class NodeRegistry {
  private readonly nodes = new Map<string, KubeObject>();

  constructor(private readonly writable: (nodeName: string) => boolean = () => true) {}

  get size(): number {
    return this.nodes.size;
  }

  has(nodeName: string): boolean {
    return this.nodes.has(nodeName);
  }

  get(nodeName: string): KubeObject | undefined {
    return this.nodes.get(nodeName);
  }

  set(node: KubeObject): void {
    this.nodes.set(node.metadata.name ?? '', node);
  }

  delete(nodeName: string): boolean {
    return this.nodes.delete(nodeName);
  }

  /** Managed here and not read-only. */
  isWritable(nodeName: string): boolean {
    return this.nodes.has(nodeName) && this.writable(nodeName);
  }
}
