/**
 * IPv4/IPv6 addresses as bigints, so one pool implementation serves both families (dual-stack
 * nodes have one podCIDR of each). Formatting is canonical (RFC 5952 for v6) so string keys from
 * the API and from our own allocations compare equal.
 */
export interface IpAddress {
  family: 4 | 6;
  value: bigint;
}

export function parseIp(text: string): IpAddress | undefined {
  if (text.includes(':')) return parseIpv6(text);
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const n = Number(part);
    if (n > 255) return undefined;
    value = (value << 8n) | BigInt(n);
  }
  return { family: 4, value };
}

function parseIpv6(text: string): IpAddress | undefined {
  let head = text;
  // An embedded IPv4 tail ("::ffff:1.2.3.4") becomes two hextets.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const tail = parseIp(v4[1]!);
    if (!tail || tail.family !== 4) return undefined;
    head = text.slice(0, -v4[1]!.length) + ((tail.value >> 16n) & 0xffffn).toString(16) + ':' + (tail.value & 0xffffn).toString(16);
  }
  const halves = head.split('::');
  if (halves.length > 2) return undefined;
  const left = halves[0] ? halves[0].split(':') : [];
  const right = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - left.length - right.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...left, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...right];
  let value = 0n;
  for (const group of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return undefined;
    value = (value << 16n) | BigInt(parseInt(group, 16));
  }
  return { family: 6, value };
}

export function formatIp(address: IpAddress): string {
  if (address.family === 4) {
    // One conversion to a number (32 bits fit) instead of four BigInt shifts: pod IPs are formatted per pod.
    const v = Number(address.value & 0xffffffffn);
    return `${v >>> 24}.${(v >>> 16) & 0xff}.${(v >>> 8) & 0xff}.${v & 0xff}`;
  }
  const groups: number[] = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n) groups.push(Number((address.value >> shift) & 0xffffn));
  // Compress the longest run (length >= 2) of zero groups, leftmost on ties.
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/** Canonical text of an IP, or undefined if it is not one. */
export function normalizeIp(text: string): string | undefined {
  const parsed = parseIp(text.trim());
  return parsed ? formatIp(parsed) : undefined;
}

export interface Cidr {
  family: 4 | 6;
  /** Network address (host bits cleared). */
  base: bigint;
  prefix: number;
  text: string;
}

export function parseCidr(text: string): Cidr | undefined {
  const [ip, prefixText] = text.trim().split('/');
  const address = ip === undefined ? undefined : parseIp(ip);
  if (!address || prefixText === undefined || !/^\d+$/.test(prefixText)) return undefined;
  const bits = address.family === 4 ? 32 : 128;
  const prefix = Number(prefixText);
  if (prefix > bits) return undefined;
  const hostBits = BigInt(bits - prefix);
  const base = (address.value >> hostBits) << hostBits;
  return { family: address.family, base, prefix, text: `${formatIp({ family: address.family, value: base })}/${prefix}` };
}

export function cidrContains(cidr: Cidr, address: IpAddress): boolean {
  if (cidr.family !== address.family) return false;
  const hostBits = BigInt((cidr.family === 4 ? 32 : 128) - cidr.prefix);
  return address.value >> hostBits === cidr.base >> hostBits;
}
