import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { readSource } from '../../cli/read-source.js';
import { UsageError } from '../../util/errors.js';

export default class AutoscalerCheck extends BaseCommand<typeof AutoscalerCheck> {
  static override summary = "Check cluster-autoscaler kwok-provider ConfigMaps before applying them";
  static override description =
    'Reads the kwok-provider-config and kwok-provider-templates ConfigMaps from -f files and reports what would make the provider silently never scale up (template nodes without the nodegroup label/annotation named by nodegroups.fromNodeLabelKey/fromNodeAnnotation) or refuse to start. Prints the nodegroups on success; exits 2 with the problems otherwise. A running cluster does the same check in its kwok controller (a KwokProviderNoNodegroup event).';
  static override examples = ['<%= config.bin %> autoscaler check -f templates/autoscaler/kwok-provider-configmaps.yaml'];
  static override flags = {
    file: Flags.string({ char: 'f', description: 'YAML with the ConfigMaps ("-" for stdin); repeatable', required: true, multiple: true }),
    namespace: Flags.string({ char: 'n', description: 'namespace of ConfigMaps that name none', default: 'default' }),
  };

  async run(): Promise<void> {
    // Imported here, not at the top: the help needs the flags, not the kwok controller's code.
    const { checkProviderConfigMaps, parseK8sYamlDocuments, PROVIDER_CONFIG_NAME } = await import('../../kwok/index.js');
    const objects: unknown[] = [];
    for (const file of this.flags.file) {
      const text = await readSource(file);
      try {
        objects.push(...parseK8sYamlDocuments(text));
      } catch (error) {
        throw new UsageError(`${file}: invalid YAML: ${(error as Error).message.split('\n')[0]}`, { cause: error });
      }
    }
    const checks = checkProviderConfigMaps(objects, this.flags.namespace);
    if (checks.length === 0) throw new UsageError(`no ConfigMap named ${PROVIDER_CONFIG_NAME} in ${this.flags.file.join(', ')}`, { hint: 'see templates/autoscaler/kwok-provider-configmaps.yaml for both ConfigMaps' });
    const problems = checks.flatMap((c) => c.problems);
    for (const c of checks) if (c.problems.length === 0) process.stdout.write(`${c.namespace}: ok, nodegroups ${c.nodegroups.join(', ')}\n`);
    for (const p of problems) process.stdout.write(`problem: ${p}\n`);
    if (problems.length > 0) throw new UsageError(`${problems.length} problem${problems.length > 1 ? 's' : ''} in the kwok provider ConfigMaps`, { hint: 'fix the lines starting with "problem:" above' });
  }
}
