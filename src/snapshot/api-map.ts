/**
 * The cluster's own answers a recording needs: which REST resource each --filter entry names
 * (discovery), and how each kind is strategic-merge-patched (its OpenAPI v3 document).
 */
import type { ResourceRef } from '../kube/index.js';
import { OPAQUE_SCHEMA, patchSchemaFor, type OpenApiDocument, type PatchSchema } from './patch-schema.js';

export type RawGet = (path: string) => Promise<unknown>;

interface ApiResource {
  name: string;
  singularName?: string;
  kind: string;
  namespaced: boolean;
  shortNames?: string[];
}

interface GroupVersion {
  group: string;
  version: string;
  resources: ApiResource[];
}

/** Discovery as kwokctl's filter reads it: `name`, `name.group` or `name.version.group`. */
export async function mapFilters(get: RawGet, filters: readonly string[]): Promise<{ refs: ResourceRef[]; unknown: string[] }> {
  const core = (await get('/api/v1')) as { resources?: ApiResource[] };
  const groups = ((await get('/apis')) as { groups?: Array<{ name: string; versions: Array<{ version: string }>; preferredVersion?: { version: string } }> }).groups ?? [];
  const loaded = new Map<string, Promise<GroupVersion>>();
  const groupVersion = (group: string, version: string): Promise<GroupVersion> => {
    const key = `${group}/${version}`;
    let pending = loaded.get(key);
    if (!pending) {
      pending = (async () => {
        const body = group === '' ? core : ((await get(`/apis/${group}/${version}`)) as { resources?: ApiResource[] });
        return { group, version, resources: (body.resources ?? []).filter((r) => !r.name.includes('/')) };
      })();
      loaded.set(key, pending);
    }
    return pending;
  };
  const preferred = (group: string): string | undefined => {
    const g = groups.find((x) => x.name === group);
    return g?.preferredVersion?.version ?? g?.versions[0]?.version;
  };
  const refs: ResourceRef[] = [];
  const unknown: string[] = [];
  for (const filter of filters) {
    const [name = '', ...rest] = filter.toLowerCase().split('.');
    const candidates: Array<[string, string]> = [];
    if (rest.length === 0) candidates.push(['', 'v1']);
    else {
      const whole = rest.join('.');
      const v = preferred(whole);
      if (v) candidates.push([whole, v]);
      const [version = '', ...groupParts] = rest;
      const group = groupParts.join('.');
      if (groupParts.length > 0 && groups.find((g) => g.name === group)?.versions.some((x) => x.version === version)) candidates.push([group, version]);
    }
    let found: ResourceRef | undefined;
    for (const [group, version] of candidates) {
      const gv = await groupVersion(group, version);
      const r = gv.resources.find((x) => x.name === name || x.singularName === name || x.kind.toLowerCase() === name || (x.shortNames ?? []).includes(name));
      if (r) {
        found = { group, version, resource: r.name, kind: r.kind, namespaced: r.namespaced };
        break;
      }
    }
    if (found) {
      if (!refs.some((r) => r.group === found.group && r.resource === found.resource)) refs.push(found);
    } else unknown.push(filter);
  }
  return { refs, unknown };
}

/** Patch schemas from the apiserver's OpenAPI v3 documents, one fetch per group-version. */
export function openApiSchemas(get: RawGet): (ref: ResourceRef) => Promise<PatchSchema> {
  let index: Promise<Record<string, { serverRelativeURL: string }>> | undefined;
  const documents = new Map<string, Promise<OpenApiDocument | undefined>>();
  return async (ref) => {
    index ??= (get('/openapi/v3') as Promise<{ paths?: Record<string, { serverRelativeURL: string }> }>).then((b) => b.paths ?? {}, () => ({}));
    const key = ref.group === '' ? `api/${ref.version}` : `apis/${ref.group}/${ref.version}`;
    let doc = documents.get(key);
    if (!doc) {
      doc = index.then((paths) => {
        const url = paths[key]?.serverRelativeURL;
        return url ? (get(url) as Promise<OpenApiDocument>).catch(() => undefined) : undefined;
      });
      documents.set(key, doc);
    }
    const document = await doc;
    return document ? patchSchemaFor(document, ref.group, ref.version, ref.kind) : OPAQUE_SCHEMA;
  };
}
