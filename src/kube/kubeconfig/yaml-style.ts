/**
 * How kwokts writes YAML so that kubectl (Go, sigs.k8s.io/yaml, i.e. YAML 1.1) reads back
 * exactly what we meant, and so that re-serialising a user's file changes as little as the
 * yaml Document API allows.
 */
import { Document, parse, Scalar, visit, type Node, type ToStringOptions } from 'yaml';

export interface YamlStyle {
  indent: number;
  indentSeq: boolean;
  flowCollectionPadding: boolean;
}

/** clientcmd's own layout: two spaces, sequences flush with their key. */
export const KUBECTL_STYLE: Readonly<YamlStyle> = Object.freeze({ indent: 2, indentSeq: false, flowCollectionPadding: true });

/**
 * Reads the layout choices the yaml library cannot keep per node from the user's text.
 * Without this, a file written with indented sequences (common in hand-edited configs)
 * would be re-indented top to bottom by an unrelated merge.
 */
export function detectStyle(text: string): YamlStyle {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'));
  let indentSeq: boolean | undefined;
  let indent: number | undefined;
  for (let i = 0; i + 1 < lines.length; i++) {
    const key = /^( *)(- )?[^\s#][^:]*:\s*(#.*)?$/.exec(lines[i] ?? '');
    if (key === null) continue;
    const keyIndent = (key[1] ?? '').length + (key[2] ?? '').length;
    const next = /^( *)(- )?/.exec(lines[i + 1] ?? '');
    const nextIndent = (next?.[1] ?? '').length;
    if (next?.[2] !== undefined) {
      indentSeq ??= nextIndent > keyIndent;
    } else if (nextIndent > keyIndent) {
      indent ??= nextIndent - keyIndent;
    }
    if (indentSeq !== undefined && indent !== undefined) break;
  }
  // `{a: 1}` rather than `{ a: 1 }` somewhere in the file: keep the tight form.
  const tightFlow = /(^|[:\-]\s)[{[][^\s}\]]/m.test(text);
  return {
    indent: indent !== undefined && indent >= 1 && indent <= 8 ? indent : KUBECTL_STYLE.indent,
    indentSeq: indentSeq ?? KUBECTL_STYLE.indentSeq,
    flowCollectionPadding: !tightFlow,
  };
}

export function toStringOptions(style: YamlStyle): ToStringOptions {
  // lineWidth 0: never fold a long plain scalar (exec args, descriptions) that we did not touch.
  return { ...style, lineWidth: 0, minContentWidth: 0 };
}

/**
 * A node for `value` that kubectl parses back to the same value. YAML 1.2 writes the string
 * `on`, `yes` or `0755` plain, but Go's YAML 1.1 reads those as a bool or a number, so such
 * strings are double-quoted.
 */
export function createSafeNode(doc: Document, value: unknown): Node {
  const node = doc.createNode(value) as Node;
  visit(node, {
    Scalar(_key, scalar: Scalar) {
      if (typeof scalar.value === 'string' && isAmbiguousUnderYaml11(scalar.value)) scalar.type = Scalar.QUOTE_DOUBLE;
    },
  });
  return node;
}

export function isAmbiguousUnderYaml11(value: string): boolean {
  try {
    return typeof parse(value, { version: '1.1', logLevel: 'silent' }) !== 'string';
  } catch {
    return true;
  }
}

export function stringifyKubeconfigValue(value: unknown): string {
  const doc = new Document();
  doc.contents = createSafeNode(doc, value);
  return doc.toString(toStringOptions(KUBECTL_STYLE));
}
