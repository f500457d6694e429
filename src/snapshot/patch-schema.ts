/**
 * What a strategic merge patch needs to know about a field: whether a list is merged element by
 * element (and by which key) or replaced whole. The apiserver publishes it in its OpenAPI v3
 * documents as x-kubernetes-patch-strategy / x-kubernetes-patch-merge-key on each property.
 * Fields it says nothing about (custom resources, free-form maps) are replaced, as the apiserver
 * itself does for them.
 */

export interface FieldPatchMeta {
  /** e.g. ['merge'], ['merge', 'retainKeys'], [] for replace. */
  strategies: string[];
  mergeKey?: string;
}

export interface PatchSchema {
  /** The patch metadata of property `name` and the schema of its value (of its items, for a list). */
  field(name: string): { meta: FieldPatchMeta; schema: PatchSchema };
}

/** No knowledge: every list is replaced. */
export const OPAQUE_SCHEMA: PatchSchema = {
  field: () => ({ meta: { strategies: [] }, schema: OPAQUE_SCHEMA }),
};

interface OpenApiSchema {
  $ref?: string;
  allOf?: OpenApiSchema[];
  properties?: Record<string, OpenApiSchema>;
  items?: OpenApiSchema;
  additionalProperties?: OpenApiSchema | boolean;
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-patch-merge-key'?: string;
  'x-kubernetes-group-version-kind'?: Array<{ group: string; version: string; kind: string }>;
}

export interface OpenApiDocument {
  components?: { schemas?: Record<string, OpenApiSchema> };
}

class OpenApiPatchSchema implements PatchSchema {
  constructor(
    private readonly schemas: Record<string, OpenApiSchema>,
    private readonly node: OpenApiSchema | undefined,
  ) {}

  field(name: string): { meta: FieldPatchMeta; schema: PatchSchema } {
    const property = this.resolve(this.node)?.properties?.[name];
    if (!property) return { meta: { strategies: [] }, schema: OPAQUE_SCHEMA };
    const strategy = property['x-kubernetes-patch-strategy'];
    const meta: FieldPatchMeta = { strategies: strategy ? strategy.split(',').map((s) => s.trim()) : [] };
    const mergeKey = property['x-kubernetes-patch-merge-key'];
    if (mergeKey) meta.mergeKey = mergeKey;
    const value = this.resolve(property);
    const inner = value?.items ?? (typeof value?.additionalProperties === 'object' ? undefined : value);
    return { meta, schema: inner ? new OpenApiPatchSchema(this.schemas, inner) : OPAQUE_SCHEMA };
  }

  /** Follows $ref and single-element allOf wrappers (how v3 documents reference named schemas). */
  private resolve(node: OpenApiSchema | undefined): OpenApiSchema | undefined {
    let current = node;
    for (let depth = 0; current && depth < 16; depth++) {
      const ref = current.$ref ?? (current.allOf?.length === 1 ? current.allOf[0]!.$ref : undefined);
      if (!ref) return current;
      const name = ref.replace(/^#\/components\/schemas\//, '');
      current = this.schemas[name];
    }
    return current;
  }
}

/** The schema of kind `kind` in `group/version` from that group-version's OpenAPI v3 document. */
export function patchSchemaFor(document: OpenApiDocument, group: string, version: string, kind: string): PatchSchema {
  const schemas = document.components?.schemas ?? {};
  for (const schema of Object.values(schemas)) {
    const gvks = schema['x-kubernetes-group-version-kind'] ?? [];
    if (gvks.some((g) => g.group === group && g.version === version && g.kind === kind)) return new OpenApiPatchSchema(schemas, schema);
  }
  return OPAQUE_SCHEMA;
}
