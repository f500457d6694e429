import { isIP } from 'node:net';
import { UsageError } from '../util/errors.js';

/** Subject alternative names, split the way X.509 stores them. */
export interface SubjectAltNames {
  dns: string[];
  ips: string[];
}

/**
 * The names every kwokctl cluster certificate carries: the in-cluster service names (so pods
 * and webhooks that dial `kubernetes.default.svc` verify) and loopback (so the host does).
 */
export const DEFAULT_SANS: Readonly<SubjectAltNames> = Object.freeze({
  dns: ['kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local', 'localhost'],
  ips: ['127.0.0.1', '::1'],
});

// Letters, digits, hyphens, dots and a leading wildcard label: what Go's x509 verifier matches.
const DNS_NAME = /^(\*\.)?[A-Za-z0-9_]([A-Za-z0-9_-]*[A-Za-z0-9_])?(\.[A-Za-z0-9_]([A-Za-z0-9_-]*[A-Za-z0-9_])?)*$/;

/**
 * Defaults first, then the caller's extras, without duplicates. IPs are compared in their
 * canonical form so `::1` and `0:0:0:0:0:0:0:1` count once. Bad entries are the user's
 * (they come from `--kube-apiserver-cert-sans` style configuration), hence UsageError.
 */
export function mergeSans(extra: SubjectAltNames | undefined): SubjectAltNames {
  const dns = new Map<string, string>();
  const ips = new Map<string, string>();
  for (const name of [...DEFAULT_SANS.dns, ...(extra?.dns ?? [])]) {
    if (!DNS_NAME.test(name) || name.length > 253) {
      throw new UsageError(`certificate SAN ${JSON.stringify(name)} is not a valid DNS name`, {
        hint: 'put IP addresses in the ips list and DNS names in the dns list',
      });
    }
    const key = name.toLowerCase();
    if (!dns.has(key)) dns.set(key, name);
  }
  for (const ip of [...DEFAULT_SANS.ips, ...(extra?.ips ?? [])]) {
    const key = canonicalIp(ip);
    if (!ips.has(key)) ips.set(key, ip);
  }
  return { dns: [...dns.values()], ips: [...ips.values()] };
}

function canonicalIp(ip: string): string {
  const family = isIP(ip);
  if (family === 4) return ip.split('.').map(Number).join('.');
  if (family === 6) return new URL(`http://[${ip}]/`).hostname;
  throw new UsageError(`certificate SAN ${JSON.stringify(ip)} is not a valid IP address`, {
    hint: 'put DNS names in the dns list and IP addresses in the ips list',
  });
}
