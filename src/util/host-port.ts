/**
 * "host", "host:port", "[v6]" and "[v6]:port" as flags give them (kwok's --server-address,
 * `get kubeconfig --host`), checked before they are used: Node's own messages for a port out of
 * range ("options.port should be >= 0 and < 65536") name no flag, and a URL built from a host
 * with a space in it is written out as if it were fine.
 */
import { parseIp } from './ip-address.js';

export interface HostPort {
  /** Without brackets; '' when the text was ":port". */
  host: string;
  port: number | undefined;
}

export interface HostPortRules {
  /** "host" alone (no port) is accepted. */
  portOptional?: boolean;
  /** ":port" (no host) is accepted. */
  hostOptional?: boolean;
  /** Port 0 is accepted (a listener asking for any free port). */
  portZero?: boolean;
}

/** The largest TCP port. */
export const MAX_PORT = 65535;

/** A host name as RFC 1123 allows it: dot-separated labels of letters, digits and '-', not starting or ending with '-'. */
const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9]([-A-Za-z0-9]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([-A-Za-z0-9]{0,61}[A-Za-z0-9])?)*\.?$/;

/** Why `host` is neither an IP address nor a host name, or undefined when it is one. */
export function hostProblem(host: string): string | undefined {
  if (parseIp(host) || HOST_NAME.test(host)) return undefined;
  return `"${host}" is not a host name or IP address`;
}

/** Parse and check; throws HostPortError with a message that quotes the text. */
export function parseHostPort(text: string, rules: HostPortRules = {}): HostPort {
  let host: string;
  let portText: string | undefined;
  if (text.includes('://')) throw new HostPortError(`"${text}" is a URL, not ${rules.portOptional ? 'host[:port]' : 'host:port'}`);
  const bracketed = /^\[([^\]]*)\](?::(.*))?$/.exec(text);
  if (bracketed) {
    host = bracketed[1]!;
    portText = bracketed[2];
    if (!parseIp(host) || !host.includes(':')) throw new HostPortError(`"${text}": "${host}" in brackets is not an IPv6 address`);
  } else if ((text.match(/:/g) ?? []).length > 1) {
    // A bare IPv6 address: its colons are not a port separator.
    host = text;
    if (!parseIp(host) || !rules.portOptional) throw new HostPortError(`"${text}" is not ${rules.portOptional ? 'host[:port]' : 'host:port'} (an IPv6 address goes in brackets: [::1]:8080)`);
  } else {
    const colon = text.indexOf(':');
    host = colon < 0 ? text : text.slice(0, colon);
    portText = colon < 0 ? undefined : text.slice(colon + 1);
  }
  if (host === '') {
    if (!rules.hostOptional) throw new HostPortError(`"${text}" has no host`);
  } else {
    const problem = hostProblem(host);
    if (problem) throw new HostPortError(`"${text}": ${problem}`);
  }
  if (portText === undefined) {
    if (!rules.portOptional) throw new HostPortError(`"${text}" has no port (want host:port)`);
    return { host, port: undefined };
  }
  const min = rules.portZero ? 0 : 1;
  if (!/^\d+$/.test(portText)) throw new HostPortError(`"${text}": port "${portText}" is not a number`);
  const port = Number(portText);
  if (port < min || port > MAX_PORT) throw new HostPortError(`"${text}": port ${portText} is not in ${min}-${MAX_PORT}`);
  return { host, port };
}

export class HostPortError extends Error {}
