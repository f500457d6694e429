/**
 * Recording: list every resource of the filter, write the objects as a k8s snapshot, then watch
 * them and append one ResourcePatch per change until stopped (Ctrl-C). The file is written as it
 * goes, so a recording cut short by a crash still holds every change up to that moment.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { once, setMaxListeners } from 'node:events';
import { objectKey, Reflector, type KubeClient, type KubeObject, type ResourceRef } from '../kube/index.js';
import { renderYamlDocuments } from '../gocompat/yaml/index.js';
import type { Logger } from '../util/log.js';
import { cleanForSnapshot } from './k8s-format.js';
import type { PatchSchema } from './patch-schema.js';
import { nowNs, timesToRelative } from './relative-time.js';
import { RESOURCE_PATCH_API_VERSION, RESOURCE_PATCH_KIND, type ResourcePatch } from './resource-patch.js';
import { createTwoWayMergePatch } from './two-way-patch.js';

export interface RecordOptions {
  client: KubeClient;
  /** In the order their objects go into the snapshot part. */
  refs: readonly ResourceRef[];
  schemaFor(ref: ResourceRef): Promise<PatchSchema>;
  /** A new file (created 0600; the caller checked it does not exist). */
  path: string;
  logger: Logger;
  /** Recording ends when this aborts. */
  signal: AbortSignal;
  /** Called once the snapshot part is written and changes are being recorded. */
  onRecording?: (objects: number) => void;
}

export interface RecordResult {
  objects: number;
  changes: number;
}

interface Tracked {
  ref: ResourceRef;
  schema: PatchSchema;
  reflector: Reflector;
  initial: KubeObject[];
  /** The last recorded state of each object, as a JSON value. */
  state: Map<string, Record<string, unknown>>;
}

type Doc = Record<string, unknown>;

export async function record(options: RecordOptions): Promise<RecordResult> {
  const start = nowNs();
  const out = createWriteStream(options.path, { flags: 'wx', mode: 0o600 });
  await once(out, 'open');
  const writer = new DocWriter(out, start);
  const stop = new AbortController();
  // One abort listener per resource's watch, plus a few: not a leak.
  setMaxListeners(options.refs.length + 8, stop.signal);
  const onAbort = (): void => stop.abort();
  options.signal.addEventListener('abort', onAbort, { once: true });
  let changes = 0;
  let recording = false;
  const pending: ResourcePatch[] = [];
  const emit = (patch: ResourcePatch): void => {
    changes++;
    if (recording) writer.write(patch as unknown as Doc);
    else pending.push(patch);
  };

  const tracks: Tracked[] = [];
  for (const ref of options.refs) {
    const schema = await options.schemaFor(ref);
    const track = { ref, schema, initial: [], state: new Map() } as Omit<Tracked, 'reflector'> as Tracked;
    track.reflector = new Reflector({
      client: options.client,
      ref,
      logger: options.logger,
      onEvent: (type, object) => {
        const key = objectKey(object);
        const value = typeFirst(cleanForSnapshot(object) as unknown as Doc);
        if (!track.reflector.hasSynced) {
          track.initial.push(value as unknown as KubeObject);
          track.state.set(key, value);
          return;
        }
        const at = Number(nowNs() - start);
        const patch = changeOf(ref, object, at);
        if (type === 'DELETED') {
          track.state.delete(key);
          emit(withMethod(patch, 'delete'));
          return;
        }
        const previous = track.state.get(key);
        track.state.set(key, value);
        if (!previous) emit(withMethod(patch, 'create', value));
        else {
          const diff = createTwoWayMergePatch(previous as never, value as never, track.schema);
          // A change only to what a snapshot leaves out (resourceVersion, managedFields) is no change.
          if (Object.keys(diff).length > 0) emit(withMethod(patch, 'patch', diff));
        }
      },
    });
    tracks.push(track);
  }
  const runs = tracks.map((t) => t.reflector.run(stop.signal));
  try {
    await Promise.race([Promise.all(tracks.map((t) => t.reflector.waitForSync())), abortedPromise(stop.signal)]);
    let objects = 0;
    for (const t of tracks) {
      for (const o of t.initial) writer.write(o as unknown as Doc);
      objects += t.initial.length;
      t.initial = [];
    }
    if (!stop.signal.aborted) {
      recording = true;
      for (const p of pending.splice(0)) writer.write(p as unknown as Doc);
      options.onRecording?.(objects);
      await abortedPromise(stop.signal);
    }
    return { objects, changes };
  } finally {
    stop.abort();
    options.signal.removeEventListener('abort', onAbort);
    await Promise.allSettled(runs);
    for (const p of pending.splice(0)) writer.write(p as unknown as Doc);
    await writer.close();
  }
}

function changeOf(ref: ResourceRef, object: KubeObject, at: number): Omit<ResourcePatch, 'method'> {
  // Fields in kwokctl's order (alphabetical, as Go writes a map): the files read alike side by side.
  return {
    apiVersion: RESOURCE_PATCH_API_VERSION,
    durationNanosecond: at,
    kind: RESOURCE_PATCH_KIND,
    resource: { ...(ref.group ? { group: ref.group } : {}), resource: ref.resource, version: ref.version },
    target: { name: object.metadata.name ?? '', ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}) },
  };
}

function withMethod(change: Omit<ResourcePatch, 'method'>, method: ResourcePatch['method'], template?: Doc): ResourcePatch {
  const { apiVersion, durationNanosecond, kind, resource, target } = change;
  return { apiVersion, durationNanosecond, kind, method, resource, target, ...(template ? { template } : {}) };
}

/** Objects as kwokctl writes them: apiVersion and kind first (list items come without them). */
function typeFirst(object: Doc): Doc {
  const { apiVersion, kind, ...rest } = object;
  return { apiVersion, kind, ...rest };
}

function abortedPromise(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/** YAML documents appended to a stream, `---` between them, timestamps made relative. */
class DocWriter {
  private first = true;
  constructor(
    private readonly out: WriteStream,
    private readonly start: bigint,
  ) {}

  write(doc: Doc): void {
    const text = timesToRelative(renderYamlDocuments([doc]), this.start);
    this.out.write(this.first ? text : `---\n${text}`);
    this.first = false;
  }

  async close(): Promise<void> {
    this.out.end();
    await once(this.out, 'finish');
  }
}
