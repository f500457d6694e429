import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { givenOptionValues, optionFlags } from '../../cli/option-flags.js';
import { validateClusterValues } from '../../cluster/validate.js';
import type { ArtifactPlan } from '../../artifacts/index.js';
import { resolveOptionValues } from '../../config/load.js';

export default class GetArtifacts extends BaseCommand<typeof GetArtifacts> {
  static override summary = 'List the binaries and images a cluster would use, one a line (kwokctl); -o wide says where each binary comes from';
  static override description =
    'Every artifact a cluster of the runtime may use, Prometheus included, sorted: binary URLs (or paths) for the binary runtime; images and the kubectl binary for docker, podman and nerdctl; the node image, the controller image and kubectl for kind. The runtime is --runtime, else KWOK_RUNTIME or the config\'s, else binary (kwokts does not probe engines here; kwokctl picks docker when it answers).';
  static override examples = [
    '<%= config.bin %> get artifacts',
    '<%= config.bin %> get artifacts --runtime docker --filter image',
    'KWOK_KUBE_VERSION=v1.35.0 <%= config.bin %> get artifacts -o wide',
  ];
  static override flags = {
    ...optionFlags(),
    filter: Flags.string({ description: 'list only binaries or only images (default: both)', options: ['binary', 'image'] }),
    output: Flags.string({ char: 'o', description: 'name: one artifact a line (kwokctl); wide: binaries with version, source and origin; json', options: ['name', 'wide', 'json'], default: 'name' }),
  };

  async run(): Promise<void> {
    const config = await this.loadConfig();
    const given = givenOptionValues(this.flags as Record<string, unknown>);
    const values = resolveOptionValues(config.fileOptions, process.env, given);
    // A version that is not one would be listed as URLs that cannot exist.
    validateClusterValues(values, given, process.env);
    // Imported here, not at the top: the help needs the flags, not the artifact plans and runtimes.
    const { listArtifacts } = await import('../../cluster/artifact-list.js');
    const list = await listArtifacts(values.runtime || 'binary', values, this.workdir);
    const binaries = this.flags.filter === 'image' ? [] : list.binaries;
    const images = this.flags.filter === 'binary' ? [] : list.images;
    if (this.flags.output === 'json') {
      this.log(
        JSON.stringify(
          [
            ...binaries.map(({ name, version, source, origin, path, fallback }) => ({ kind: 'binary', name, version, source, origin, path, fallback })),
            ...images.map(({ name, image }) => ({ kind: 'image', name, image })),
          ],
          null,
          2,
        ),
      );
      return;
    }
    if (this.flags.output === 'name') {
      for (const line of [...binaries.map(configuredOrigin), ...images.map((i) => i.image)].sort()) this.log(line);
      return;
    }
    const rows = [
      ['NAME', 'VERSION', 'SOURCE', 'ORIGIN'],
      ...binaries.map((p) => [p.name, p.version, p.source, p.fallback ? `${p.origin} (else ${p.fallback.origin})` : p.origin]),
      ...images.map((i) => [i.name, i.image.split(':').at(-1) ?? '', 'image', i.image]),
    ];
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    for (const r of rows) this.log(r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]! + 2))).join(''));
  }
}

/**
 * Where a binary is configured to come from (the explicit value, a mirror or the upstream URL),
 * as kwokctl lists it, whether or not a copy is cached already; -o wide says what would be used.
 */
function configuredOrigin(plan: ArtifactPlan): string {
  const configured = plan.candidates.find((c) => c.type === 'download' || c.source === 'explicit' || c.source === 'path');
  return configured?.origin ?? plan.origin;
}
