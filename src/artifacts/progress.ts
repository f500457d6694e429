/**
 * Progress events from downloads and Go builds. Core code only emits them; `src/cli` decides how
 * (or whether) to show them.
 */
import type { GoBuildKind } from './sources.js';

export type GoBuildPhase =
  /** `go mod download -json` of the upstream modules, to read their go.mod files. */
  | 'resolve'
  /** Writing the throwaway module and running `go get`. */
  | 'prepare'
  /** The single `go build` of every command of the family. */
  | 'compile'
  /** Running each output's `--version`. */
  | 'verify'
  /** Moving the outputs into the cache. */
  | 'install'
  | 'done';

export type ArtifactProgressEvent =
  | {
      type: 'download';
      /** The binary this download is for, when known. */
      name?: string;
      url: string;
      transferred: number;
      /** Content-Length, when the server sent one. */
      total?: number;
      /** 0..1; 0 while the total is unknown. */
      percent: number;
      done: boolean;
    }
  | { type: 'extract'; archive: string; member: string }
  | { type: 'wait-lock'; path: string }
  | {
      type: 'build';
      kind: GoBuildKind;
      version: string;
      phase: GoBuildPhase;
      /** One line of the go tool's output, when the event carries one. */
      line?: string;
      /** What the phase is at: the module read or fetched, the package compiled, the binary checked. */
      item?: string;
      /** How many of `total` the phase has done (`total` undefined: not known in advance). */
      done?: number;
      total?: number;
    };

export type ProgressCallback = (event: ArtifactProgressEvent) => void;
