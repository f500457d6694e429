/**
 * Pod-IP pools, one per CIDR, as kwok allocates them: a freed IP is reused first, otherwise the next
 * sequential address from base+1 that is not in use. Like kwok there is no upper bound: a pool that
 * runs past its CIDR keeps counting (a /24 with more than 254 pods gets addresses beyond it).
 * IPs already present on pods are marked used so a restarted controller never hands them out again.
 */
import { cidrContains, formatIp, parseCidr, parseIp } from '../../util/ip-address.js';
import type { Cidr } from '../../util/ip-address.js';

export class IpPool {
  readonly cidr: Cidr;
  private readonly used = new Set<string>();
  /** Insertion-ordered, so the oldest freed IP is reused first. */
  private readonly freed = new Set<string>();
  private nextOffset = 1n;

  constructor(cidr: string) {
    const parsed = parseCidr(cidr);
    if (!parsed) throw new Error(`invalid CIDR "${cidr}"`);
    this.cidr = parsed;
  }

  get usedCount(): number {
    return this.used.size;
  }

  contains(ip: string): boolean {
    const address = parseIp(ip);
    return address !== undefined && cidrContains(this.cidr, address);
  }

  /** Allocate an IP. */
  get(): string {
    for (const ip of this.freed) {
      this.freed.delete(ip);
      if (!this.used.has(ip)) {
        this.used.add(ip);
        return ip;
      }
    }
    for (;;) {
      const ip = formatIp({ family: this.cidr.family, value: this.cidr.base + this.nextOffset });
      this.nextOffset++;
      if (!this.used.has(ip)) {
        this.used.add(ip);
        return ip;
      }
    }
  }

  /** Mark an IP taken (seen on an existing pod). Returns false if it is not in this pool's CIDR. */
  use(ip: string): boolean {
    const address = parseIp(ip);
    if (!address || !cidrContains(this.cidr, address)) return false;
    const canonical = formatIp(address);
    this.used.add(canonical);
    this.freed.delete(canonical);
    return true;
  }

  /** Give an IP back. Returns false if it was not allocated from (or marked in) this pool. */
  put(ip: string): boolean {
    // get() hands out canonical text, so the pod's IP is usually found as written; parsing it (a
    // BigInt per octet) is for IPs written another way.
    if (this.used.delete(ip)) {
      this.freed.add(ip);
      return true;
    }
    const address = parseIp(ip);
    if (address?.family !== this.cidr.family) return false;
    const canonical = formatIp(address);
    if (!this.used.delete(canonical)) return false;
    this.freed.add(canonical);
    return true;
  }
}

/** All pools of one controller, created on first use and found again by CIDR or by member IP. */
export class IpPools {
  private readonly pools = new Map<string, IpPool>();
  /** The pool for a CIDR as written, so each allocation does not parse the CIDR again. */
  private readonly byText = new Map<string, IpPool>();

  pool(cidr: string): IpPool {
    const known = this.byText.get(cidr);
    if (known) return known;
    const key = parseCidr(cidr)?.text ?? cidr;
    let pool = this.pools.get(key);
    if (!pool) {
      pool = new IpPool(cidr);
      this.pools.set(pool.cidr.text, pool);
    }
    this.byText.set(cidr, pool);
    return pool;
  }

  /** Mark `ip` used in the most specific existing pool that contains it. */
  use(ip: string): boolean {
    return this.owner(ip)?.use(ip) ?? false;
  }

  /** Release `ip` to whichever pool handed it out (it may lie beyond that pool's CIDR, see above). */
  put(ip: string): boolean {
    for (const pool of this.pools.values()) if (pool.put(ip)) return true;
    return false;
  }

  private owner(ip: string): IpPool | undefined {
    let best: IpPool | undefined;
    for (const pool of this.pools.values()) if (pool.contains(ip) && (!best || pool.cidr.prefix > best.cidr.prefix)) best = pool;
    return best;
  }
}
