/** Getting the control-plane binaries: plan, resolve (download, cache, verify) and build from Go modules. */
export { resolveArtifacts, planArtifacts } from './resolve.js';
export type { ResolvedArtifact, ResolveArtifactsOptions, ArtifactPlan, PlanArtifactsOptions } from './resolve.js';
export {
  BINARY_NAMES,
  KUBE_BINARIES,
  ETCD_BINARIES,
  BINARY_OVERRIDES,
  HOST_PLATFORM,
  buildArtifactCandidates,
  cachePathForUrl,
  defaultCacheDir,
  goBuildDir,
  goBuildKindOf,
  goBuildPath,
  isBinaryName,
  memberCachePath,
  normalizeRequest,
  platformFromNode,
  upstreamUrl,
} from './sources.js';
export type {
  ArtifactCandidate,
  ArtifactRequest,
  ArtifactSource,
  BinaryName,
  BinaryOverrideNames,
  ChecksumSpec,
  GoBuildKind,
  OfflineBuildMode,
  Platform,
} from './sources.js';
export { buildFromGoModules, detectGo, planGoBuild, buildKubernetesGoMod, buildEtcdGoMod, kubernetesLdflags } from './gobuild.js';
export type { GoBuildOptions, GoBuildResult, GoBuildPlan, GoToolchain } from './gobuild.js';
export { buildClusterAutoscalerFromModule, buildClusterAutoscalerFromSource, planClusterAutoscalerSourceBuild } from './cluster-autoscaler.js';
export type { SourceBuildPlan, SourceBuildResult } from './cluster-autoscaler.js';
export { DEFAULT_DOWNLOAD_TUNING, DownloadError, downloadTuningFromEnv, parseDurationMs } from './download.js';
export type { DownloadTuning, DownloadFailure } from './download.js';
export type { ArtifactProgressEvent, GoBuildPhase, ProgressCallback } from './progress.js';
export { formatBytes, planPrune, prune } from './prune.js';
export type { PruneEntry, PrunePlan, PruneOptions } from './prune.js';
