/**
 * Go kwokctl and kwok v0.8.0, the oracles the compat tests compare behaviour with and the peers the
 * benchmarks time. The project never builds or installs them (they are kwok's code); they are
 * found where `go install sigs.k8s.io/kwok/cmd/kwokctl@v0.8.0 sigs.k8s.io/kwok/cmd/kwok@v0.8.0`
 * puts them, or where the environment says. One place, so that the tests and every benchmark look
 * in the same places.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';

export type Peer = 'kwokctl' | 'kwok';

/** The environment variables naming each peer, first wins: the tests' names, then the benchmarks'. */
const PEER_ENV: Record<Peer, readonly string[]> = {
  kwokctl: ['KWOKCTL_BINARY', 'KWOKCTL'],
  kwok: ['KWOK_BINARY', 'KWOK'],
};

/** Where to look, in order: a variable that names it, then go install's target ($GOBIN, $GOPATH/bin, ~/go/bin). */
export function peerCandidates(peer: Peer, env: NodeJS.ProcessEnv = process.env, home = homedir()): string[] {
  for (const name of PEER_ENV[peer]) {
    const given = env[name];
    if (given) return [given];
  }
  const gopath = env.GOPATH?.split(delimiter)[0] || join(home, 'go');
  return [...new Set([...(env.GOBIN ? [join(env.GOBIN, peer)] : []), join(gopath, 'bin', peer)])];
}

/** The peer's path: the first candidate that exists, else the first one (for a message saying where it was looked for). */
export function peerBinary(peer: Peer, env: NodeJS.ProcessEnv = process.env, exists: (path: string) => boolean = existsSync): string {
  const candidates = peerCandidates(peer, env);
  return candidates.find(exists) ?? candidates[0]!;
}
