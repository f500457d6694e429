import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { readSource } from '../../cli/read-source.js';
import type { Stage } from '../../kwok/index.js';
import { UsageError } from '../../util/errors.js';

export default class StageTest extends BaseCommand<typeof StageTest> {
  static override summary = 'Show which Stage matches an object and what it would do, without a cluster';
  static override description = 'Reads Stage documents from -c files and one object from -f; prints every stage that could play (weight, delay range in nanoseconds, the exact patches with type, subresource and body) as YAML. With --steps N, applies the chosen stage locally and shows the next match, N times.';
  static override examples = [
    '<%= config.bin %> stage test -c templates/stages/pod-fast.yaml -f pod.yaml',
    '<%= config.bin %> stage test -c my-stages.yaml -f node.yaml --now 2026-01-01T00:00:00Z --steps 3',
  ];
  static override flags = {
    file: Flags.string({ char: 'f', description: 'the object (YAML or JSON; "-" for stdin)', required: true }),
    now: Flags.string({ description: 'the current time for delays and Now (RFC3339)' }),
    steps: Flags.integer({ description: 'apply the chosen stage and re-match this many times', default: 0, min: 0 }),
    cidr: Flags.string({ description: 'range for stand-in node and pod IPs', default: '10.0.0.0/24' }),
  };

  async run(): Promise<void> {
    if (this.flags.config.length === 0) throw new UsageError('no Stage files given', { hint: 'pass one or more with -c STAGES.yaml' });
    // Imported here, not at the top: the help needs the flags, not the controller's stage engine.
    const [{ stringify }, { loadKwokDocuments, parseK8sYamlDocuments, testStages, YamlSyntaxError }] = await Promise.all([import('yaml'), import('../../kwok/index.js')]);
    const stages: Stage[] = [];
    for (const file of this.flags.config) {
      const text = await readSource(file);
      const docs = loadKwokDocuments(text, file);
      const [first] = docs.stageErrors;
      if (first) throw first;
      stages.push(...docs.stages);
    }
    if (stages.length === 0) throw new UsageError(`no Stage documents in ${this.flags.config.join(', ')}`);
    let objects: unknown[];
    try {
      objects = parseK8sYamlDocuments(await readSource(this.flags.file));
    } catch (error) {
      if (error instanceof YamlSyntaxError) throw new UsageError(`${this.flags.file} is not YAML or JSON: ${error.message.split('\n')[0]}`, { hint: 'give -f one Kubernetes object', cause: error });
      throw error;
    }
    const object = objects[0];
    if (objects.length !== 1 || typeof object !== 'object' || object === null || Array.isArray(object)) {
      throw new UsageError(`${this.flags.file} must hold exactly one object`);
    }
    const now = this.flags.now ? new Date(this.flags.now) : new Date();
    if (Number.isNaN(now.getTime())) throw new UsageError(`invalid --now ${JSON.stringify(this.flags.now)}`, { hint: 'use RFC3339, e.g. 2026-01-01T00:00:00Z' });
    const report = testStages(stages, object as Record<string, unknown>, { now, steps: this.flags.steps, cidr: this.flags.cidr });
    process.stdout.write(stringify(report, { lineWidth: 0 }));
  }
}
