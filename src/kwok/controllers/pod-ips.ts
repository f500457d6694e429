/**
 * Pod IPs for the pod template functions: pools per CIDR (the node's podCIDRs, else
 * podCIDR, else --cidr), node IPs for hostNetwork pods, existing IPs marked used so a restart never
 * hands out duplicates, and release when the pod is deleted.
 *
 * Allocations are remembered by pod uid until the pod is deleted: a template that asks for the IP
 * twice (podIP and podIPs), or a stage that is retried after a failed patch, gets the same address
 * instead of leaking one.
 */
import { IpPools } from '../ippool/ip-pool.js';
import type { KubeObject } from '../../kube/index.js';
import { nodeHostIps, nodePodCidrs } from './node-addresses.js';

export interface PodIpOptions {
  /** --cidr: pool for nodes without podCIDR(s) and for PodIP. */
  defaultCidr: string;
  /** --node-ip: host IP when the node reports none. */
  nodeIP: string;
  /** The managed node by name (undefined when not managed). */
  getNode(nodeName: string): KubeObject | undefined;
}

interface PodStatusIps {
  podIP?: string;
  podIPs?: { ip?: string }[];
}

export function podIpsOf(pod: KubeObject): string[] {
  const status = pod['status'] as PodStatusIps | undefined;
  const ips = (status?.podIPs ?? []).map((entry) => entry.ip ?? '').filter((ip) => ip !== '');
  if (ips.length === 0 && status?.podIP) ips.push(status.podIP);
  return ips;
}

export function isHostNetwork(pod: KubeObject): boolean {
  return (pod['spec'] as { hostNetwork?: boolean } | undefined)?.hostNetwork === true;
}

export class PodIps {
  readonly pools = new IpPools();
  private readonly byUid = new Map<string, string[]>();

  constructor(private readonly options: PodIpOptions) {}

  /** Host IPs of a node, or [--node-ip] when it has none. */
  nodeIps(nodeName: string): string[] {
    const ips = nodeHostIps(this.options.getNode(nodeName));
    if (ips.length > 0) return ips;
    return this.options.nodeIP ? [this.options.nodeIP] : [];
  }

  nodeIp(nodeName: string): string {
    return this.nodeIps(nodeName)[0] ?? this.options.nodeIP;
  }

  /** PodIP: a fresh address from the --cidr pool (kwok's behaviour: every call allocates). */
  anyPodIp(): string {
    return this.pools.pool(this.options.defaultCidr).get();
  }

  /** One IP per CIDR of the node, reusing what the pod already has or was given. */
  podIps(nodeName: string, hostNetwork: boolean, uid: string): string[] {
    if (hostNetwork) return this.nodeIps(nodeName);
    const known = uid ? this.byUid.get(uid) : undefined;
    if (known) return known;
    const ips = this.cidrsOf(nodeName).map((cidr) => this.pools.pool(cidr).get());
    if (uid) this.byUid.set(uid, ips);
    return ips;
  }

  /** Record the IPs a pod already carries (from before a restart, or set by us). */
  markUsed(pod: KubeObject): void {
    if (isHostNetwork(pod)) return;
    const ips = podIpsOf(pod);
    if (ips.length === 0) return;
    const uid = pod.metadata.uid;
    const known = uid ? this.byUid.get(uid) : undefined;
    // Every watch event of a running pod carries the same IPs; skip the pool work after the first.
    if (known && known.length === ips.length && known.every((ip, i) => ip === ips[i])) return;
    const nodeName = (pod['spec'] as { nodeName?: string } | undefined)?.nodeName ?? '';
    for (const cidr of this.cidrsOf(nodeName)) this.pools.pool(cidr);
    for (const ip of ips) this.pools.use(ip);
    if (uid && !known) this.byUid.set(uid, ips);
  }

  /** Return a deleted pod's IPs to their pools. */
  release(pod: KubeObject): void {
    const uid = pod.metadata.uid ?? '';
    const ips = new Set(isHostNetwork(pod) ? [] : podIpsOf(pod));
    for (const ip of this.byUid.get(uid) ?? []) ips.add(ip);
    this.byUid.delete(uid);
    if (isHostNetwork(pod)) return;
    for (const ip of ips) this.pools.put(ip);
  }

  private cidrsOf(nodeName: string): string[] {
    const cidrs = nodePodCidrs(this.options.getNode(nodeName));
    return cidrs.length > 0 ? cidrs : [this.options.defaultCidr];
  }
}
