/**
 * Addresses derived from a Node object: host IPs as the kubelet reports them (InternalIP before
 * ExternalIP; the first address plus at most one of the other IP family) and the pod CIDRs.
 */
import { parseIp } from '../../util/ip-address.js';
import type { KubeObject } from '../../kube/index.js';

interface NodeAddress {
  type?: string;
  address?: string;
}

/**
 * Host IPs by node object. Every watch event brings a new object and nothing edits one in place,
 * so an object's answer never changes; each pod's template asks for it (NodeIPsWith).
 */
const hostIpsByNode = new WeakMap<KubeObject, readonly string[]>();

export function nodeHostIps(node: KubeObject | undefined): string[] {
  if (node === undefined) return [];
  let ips = hostIpsByNode.get(node);
  if (ips === undefined) {
    ips = computeHostIps(node);
    hostIpsByNode.set(node, ips);
  }
  return [...ips];
}

function computeHostIps(node: KubeObject): string[] {
  const status = node['status'] as { addresses?: NodeAddress[] } | undefined;
  const addresses = status?.addresses ?? [];
  const ordered = [
    ...addresses.filter((a) => a.type === 'InternalIP'),
    ...addresses.filter((a) => a.type === 'ExternalIP'),
  ]
    .map((a) => a.address ?? '')
    .filter((ip) => parseIp(ip) !== undefined);
  const first = ordered[0];
  if (first === undefined) return [];
  const family = parseIp(first)!.family;
  const other = ordered.find((ip) => parseIp(ip)!.family !== family);
  return other === undefined ? [first] : [first, other];
}

/** spec.podCIDRs, else [spec.podCIDR], else []. */
export function nodePodCidrs(node: KubeObject | undefined): string[] {
  const spec = node?.['spec'] as { podCIDR?: string; podCIDRs?: string[] } | undefined;
  if (spec?.podCIDRs && spec.podCIDRs.length > 0) return spec.podCIDRs.filter((c) => c !== '');
  if (spec?.podCIDR) return [spec.podCIDR];
  return [];
}
