import type { ContainerEngine, ContainerState, NetworkState } from './engine.js';

/** Dry-run on a machine without the engine: nothing exists, every effect is only printed. */
export class AbsentEngine implements ContainerEngine {
  async ping(): Promise<void> {}
  async apply(): Promise<void> {}
  async inspectContainer(): Promise<ContainerState | undefined> {
    return undefined;
  }
  async inspectNetwork(): Promise<NetworkState | undefined> {
    return undefined;
  }
  async imageExists(): Promise<boolean> {
    return false;
  }
  async rootless(): Promise<boolean> {
    return false;
  }
  async listByLabel(): Promise<string[]> {
    return [];
  }
  async logs(): Promise<void> {}
}
