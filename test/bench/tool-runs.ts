/**
 * The controllers the benches that run one tool after the other (./soak.ts, ./capacity.ts) put
 * side by side, each with the stage YAML it runs with: ours (kwokts's embedded controller) with
 * templates/stages, a cluster's default set (src/cluster/default-stages.ts); Go kwok (KWOK=/path
 * or ~/go/bin/kwok) with kwok's own stages (kustomize/stage/node/fast, node/heartbeat-with-lease
 * and pod/fast from its module source: KWOK_SOURCE=/path, else sigs.k8s.io/kwok@<version> in
 * $GOMODCACHE or ~/go/pkg/mod; ours, with a note, when absent).
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { DEFAULT_STAGE_FILES } from '../../src/cluster/default-stages.js';
import { goKwokSpec, ourControllerSpec, stagesYaml, type Controller } from './controller.js';

export type Tool = 'ours' | 'kwok';
/** --tool: one of them or both. */
export type ToolChoice = Tool | 'both';

export interface ToolRun {
  tool: Tool;
  controller: Controller;
  /** The stage YAML given to the controller with --config. */
  stages: string;
  /** Where the stages came from, for the notes. */
  stagesFrom: string;
}

/** kwok's own default set as kwokctl gives it to kwok (pkg/kwokctl/runtime/cluster.go), under kustomize/stage/. */
export const KWOK_STAGE_FILES = ['node/fast/node-initialize.yaml', 'node/heartbeat-with-lease/node-heartbeat-with-lease.yaml', 'pod/fast/pod-ready.yaml', 'pod/fast/pod-complete.yaml', 'pod/fast/pod-delete.yaml'];

/** --tool's value, checked. */
export function toolChoice(text: string | undefined): ToolChoice {
  const tool = text ?? 'both';
  if (tool !== 'ours' && tool !== 'kwok' && tool !== 'both') throw new Error(`--tool ${tool}: one of ours, kwok, both`);
  return tool;
}

/** kwok's module source (for its stage YAML): KWOK_SOURCE, else the Go module cache. */
export function kwokSource(version: string): string {
  if (process.env.KWOK_SOURCE) return process.env.KWOK_SOURCE;
  const modcache = process.env.GOMODCACHE || join(process.env.GOPATH?.split(delimiter)[0] || join(homedir(), 'go'), 'pkg', 'mod');
  return join(modcache, 'sigs.k8s.io', `kwok@${version}`);
}

/**
 * The controllers `tool` asks for, each with its stage YAML passed through `adjust`; `bench` names
 * our controller's identity. A Go kwok that is missing is left out with a note.
 */
export async function toolRuns(tool: ToolChoice, bench: string, notes: string[], adjust: (yaml: string) => string = (yaml) => yaml): Promise<ToolRun[]> {
  const runs: ToolRun[] = [];
  if (tool === 'ours' || tool === 'both') {
    runs.push({ tool: 'ours', controller: ourControllerSpec(`${bench}-ours`), stages: adjust(stagesYaml(DEFAULT_STAGE_FILES)), stagesFrom: `templates/stages (${DEFAULT_STAGE_FILES.join(', ')})` });
  }
  if (tool === 'kwok' || tool === 'both') {
    const goKwok = await goKwokSpec();
    if ('missing' in goKwok) {
      notes.push(goKwok.missing);
    } else {
      const version = /v\d+\.\d+\.\d+\S*/.exec(goKwok.label)?.[0] ?? 'v0.8.0';
      const source = join(kwokSource(version), 'kustomize', 'stage');
      if (KWOK_STAGE_FILES.every((f) => existsSync(join(source, f)))) {
        runs.push({ tool: 'kwok', controller: goKwok, stages: adjust(stagesYaml(KWOK_STAGE_FILES, source)), stagesFrom: `kwok's own, ${source} (${KWOK_STAGE_FILES.join(', ')})` });
      } else {
        const note = `${goKwok.label}: kwok's stage YAML not found under ${source} (set KWOK_SOURCE=/path/to/kwok's source); it ran with kwokts's templates/stages instead`;
        notes.push(note);
        process.stderr.write(`warning: ${note}\n`);
        runs.push({ tool: 'kwok', controller: goKwok, stages: adjust(stagesYaml(DEFAULT_STAGE_FILES)), stagesFrom: `kwokts's templates/stages (kwok's own not found)` });
      }
    }
  }
  return runs;
}
