/**
 * Rendering a stage template to a JSON value, as kwok's gotpl renderer does: the template text is
 * trimmed, executed against the object, and the output is read as YAML (sigs.k8s.io/yaml rules)
 * and converted to JSON. The template engine is a dependency (RenderTemplate) so the engine can be
 * tested without it; the default is the Go text/template port in ./gotpl.
 */
import { parseK8sYaml } from '../../gocompat/yaml/index.js';
import { renderTemplate, type FuncMap } from '../../gocompat/gotpl/index.js';
import { nativeRender } from './native-templates.js';

export type { FuncMap };

/** Executes template `text` with `data` as "." and `funcs` available; returns the output text. */
export type RenderTemplate = (text: string, data: unknown, funcs: FuncMap) => string;

/** A template failed to render, or its output is not valid YAML. */
export class StageRenderError extends Error {
  constructor(
    message: string,
    readonly output?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StageRenderError';
  }
}

/** The default RenderTemplate: ./gotpl (which caches parsed templates by text). */
export const renderWithGotpl: RenderTemplate = (text, data, funcs) => renderTemplate(text, data, funcs);

/** ./gotpl for every template, the built-in ones too (no TypeScript versions: see renderToJson). */
export const renderGotplOnly: RenderTemplate = (text, data, funcs) => renderTemplate(text, data, funcs);

const TRIMMED_LIMIT = 1024;
const trimmedTemplates = new Map<string, string>();

/**
 * A stage's template text, trimmed once. Trimming at every render made a new string of the whole
 * template, which the renderer's cache then had to hash and compare in full, per object played.
 */
function trimmedTemplate(template: string): string {
  let text = trimmedTemplates.get(template);
  if (text === undefined) {
    if (trimmedTemplates.size >= TRIMMED_LIMIT) trimmedTemplates.clear();
    text = template.trim();
    trimmedTemplates.set(template, text);
  }
  return text;
}

/**
 * Renders `template` against `object` and converts the YAML output to JSON. With the default
 * renderer, a built-in template that has a TypeScript version (./native-templates) skips both.
 */
export function renderToJson(render: RenderTemplate, template: string, object: unknown, funcs: FuncMap): unknown {
  if (render === renderWithGotpl) {
    const value = nativeRender(template, object, funcs);
    if (value !== undefined) return value;
  }
  let output: string;
  try {
    output = render(trimmedTemplate(template), object, funcs);
  } catch (error) {
    throw new StageRenderError(`render template: ${error instanceof Error ? error.message : String(error)}`, undefined, { cause: error });
  }
  try {
    return parseK8sYaml(output);
  } catch (error) {
    throw new StageRenderError(`template output is not valid YAML: ${error instanceof Error ? error.message : String(error)}`, output, { cause: error });
  }
}
