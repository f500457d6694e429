/**
 * The layering of src/ and runtimes/, enforced: the table lives in docs/design/architecture.md
 * (the one place it is kept) and is read from there. Every relative import (static, `export … from`,
 * dynamic `import()`, `import('…')` types) is read with the TypeScript parser, mapped to the
 * importing and imported layers, and checked against the table, the entry files and for cycles.
 * A failure names the import as `file:line -> target` and says what the table allows.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DOC = 'docs/design/architecture.md';

export interface Layer {
  path: string;
  mayImport: string[];
}

export interface LayerTable {
  layers: Layer[];
  /** Module folder -> the files outside code may import from it. */
  entries: Map<string, string[]>;
}

export interface ImportEdge {
  /** Repository-relative path of the importing file. */
  from: string;
  line: number;
  /** Repository-relative path of the imported file (`.js` specifiers mapped to `.ts`). */
  to: string;
}

const cells = (row: string): string[] =>
  row
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.trim());
const paths = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);

/** Reads the two tables of docs/design/architecture.md. */
export function parseLayerTable(markdown: string): LayerTable {
  const layers: Layer[] = [];
  const entries = new Map<string, string[]>();
  let section: 'none' | 'layers' | 'entries' = 'none';
  for (const line of markdown.split('\n')) {
    if (/^\| layer \| its one job \| may import \|/.test(line)) section = 'layers';
    else if (/^\| module \| entry files \|/.test(line)) section = 'entries';
    else if (!line.startsWith('|')) section = 'none';
    else if (/^\|[-| ]+\|$/.test(line.trim())) continue;
    else if (section === 'layers') {
      const [layer, , may] = cells(line);
      const [path] = paths(layer ?? '');
      if (path) layers.push({ path, mayImport: paths(may ?? '') });
    } else if (section === 'entries') {
      const [module, files] = cells(line);
      const [path] = paths(module ?? '');
      if (path) entries.set(path, paths(files ?? ''));
    }
  }
  return { layers, entries };
}

/** The layer a file belongs to: the longest layer path that is the file or a folder above it. */
export function layerOf(file: string, layers: readonly Layer[]): string | undefined {
  let best: string | undefined;
  for (const { path } of layers) {
    if ((file === path || file.startsWith(`${path}/`)) && (best === undefined || path.length > best.length)) best = path;
  }
  return best;
}

function walk(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = posix.join(dir, e.name);
    if (e.isDirectory()) return walk(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every relative import of one source text, with its line. */
export function importsOf(file: string, text: string): ImportEdge[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: ImportEdge[] = [];
  const add = (node: ts.Node, specifier: string): void => {
    if (!specifier.startsWith('.')) return;
    const to = posix.normalize(posix.join(posix.dirname(file), specifier)).replace(/\.js$/, '.ts');
    out.push({ from: file, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, to });
  };
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node, node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) add(node, arg.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node, node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

const where = (e: ImportEdge): string => `${e.from}:${e.line} -> ${e.to}`;

/** Imports the table does not allow, and imports that reach past a module's entry files. */
export function forbiddenImports(edges: readonly ImportEdge[], table: LayerTable): string[] {
  const problems: string[] = [];
  const byPath = new Map(table.layers.map((l) => [l.path, l]));
  for (const edge of edges) {
    const from = layerOf(edge.from, table.layers);
    const to = layerOf(edge.to, table.layers);
    if (from === undefined || to === undefined) {
      problems.push(`${where(edge)}: ${from === undefined ? edge.from : edge.to} is in no layer of ${DOC}`);
      continue;
    }
    if (from !== to && !(byPath.get(from)?.mayImport ?? []).includes(to)) {
      const allowed = byPath.get(from)?.mayImport.join(', ') || 'nothing';
      problems.push(`${where(edge)}: ${from} may not import ${to} (it may import: ${allowed}; see ${DOC})`);
    }
    for (const [module, files] of table.entries) {
      const inside = (p: string): boolean => p === module || p.startsWith(`${module}/`);
      if (inside(edge.to) && !inside(edge.from) && !files.includes(edge.to)) {
        problems.push(`${where(edge)}: reaches into ${module}; import ${files.join(' or ')} instead (export what you need there)`);
      }
    }
  }
  return problems;
}

/** Strongly connected groups of layers (Tarjan), each with more than one layer: the cycles. */
function cyclesOf(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let counter = 0;
  const connect = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) connect(v);
  return groups;
}

/** Cycles between layers in the actual imports, each with the imports that make it. */
export function layerCycles(edges: readonly ImportEdge[], layers: readonly Layer[]): string[] {
  const graph = new Map<string, Set<string>>();
  const example = new Map<string, ImportEdge>();
  for (const edge of edges) {
    const from = layerOf(edge.from, layers);
    const to = layerOf(edge.to, layers);
    if (from === undefined || to === undefined || from === to) continue;
    if (!graph.has(from)) graph.set(from, new Set());
    graph.get(from)?.add(to);
    if (!example.has(`${from} ${to}`)) example.set(`${from} ${to}`, edge);
  }
  return cyclesOf(graph).map((group) => {
    const inGroup = new Set(group);
    const links = [...example.entries()]
      .filter(([key]) => key.split(' ').every((l) => inGroup.has(l)))
      .map(([, e]) => where(e))
      .sort();
    return `module cycle between ${group.join(', ')}: ${links.join('; ')} (remove one of these imports)`;
  });
}

/** The table's own cycles: allowances that would let two layers import each other. */
export function tableCycles(layers: readonly Layer[]): string[] {
  const graph = new Map(layers.map((l) => [l.path, new Set(l.mayImport)]));
  return cyclesOf(graph).map((group) => `${DOC} lets these layers import each other: ${group.join(', ')}`);
}

function loadTable(): LayerTable {
  return parseLayerTable(readFileSync(join(ROOT, DOC), 'utf8'));
}

function repositoryImports(): { files: string[]; edges: ImportEdge[] } {
  const files = [...walk('src'), ...walk('runtimes')];
  const edges = files.flatMap((file) => importsOf(file, readFileSync(join(ROOT, file), 'utf8')));
  return { files, edges };
}

describe('architecture (docs/design/architecture.md)', () => {
  const table = loadTable();
  const { files, edges } = repositoryImports();

  test('the table is read, names only known layers, and is itself free of cycles', () => {
    assert.ok(table.layers.length > 20, `expected the layer table in ${DOC}`);
    assert.ok(table.entries.size >= 3, `expected the entry-file table in ${DOC}`);
    const known = new Set(table.layers.map((l) => l.path));
    const unknown = table.layers.flatMap((l) => l.mayImport.filter((m) => !known.has(m)).map((m) => `${l.path} names unknown layer ${m}`));
    assert.deepEqual(unknown, []);
    assert.deepEqual(tableCycles(table.layers), []);
  });

  test('every source file belongs to a layer', () => {
    const orphans = files.filter((f) => layerOf(f, table.layers) === undefined);
    assert.deepEqual(orphans, [], `add a row to ${DOC} for these files`);
  });

  test('every relative import resolves to a file in the repository', () => {
    const known = new Set(files);
    const dangling = edges.filter((e) => !known.has(e.to) && !known.has(e.to.replace(/\.ts$/, '.d.ts'))).map(where);
    assert.deepEqual(dangling, []);
  });

  test('no import the table forbids, and none past a module entry file', () => {
    assert.deepEqual(forbiddenImports(edges, table), []);
  });

  test('no cycles between layers', () => {
    assert.deepEqual(layerCycles(edges, table.layers), []);
  });

  test('src/gocompat imports nothing from the rest of kwokts', () => {
    const leaks = edges.filter((e) => e.from.startsWith('src/gocompat/') && !e.to.startsWith('src/gocompat/')).map(where);
    assert.deepEqual(leaks, []);
  });
});

/**
 * docs/design/architecture.md: `dryRun` appears nowhere outside src/exec and src/cli. These files still branch on it
 * (the plan-then-apply work removes them); the list may only shrink: a new file that branches on
 * dry-run fails here. Remove a file from the list once it no longer mentions dryRun.
 */
export const DRY_RUN_BRANCHES_LEFT: readonly string[] = [
  'runtimes/container/container-runtime.ts',
  'runtimes/kind/kind-runtime.ts',
  'src/cluster/create.ts',
  'src/cluster/delete.ts',
  'src/cluster/lifecycle.ts',
  'src/cluster/programs.ts',
  'src/cluster/start-components.ts',
  'src/cluster/write-pki.ts',
  'src/commands/create/cluster.ts',
  'src/commands/delete/cluster.ts',
  'src/commands/scale.ts',
  'src/commands/start/cluster.ts',
  'src/commands/stop/cluster.ts',
  'src/scale/scale.ts',
  'src/snapshot/etcd-restore.ts',
  'src/snapshot/snapshot.ts',
];

/** Files outside src/exec and src/cli that mention `dryRun` and are not on the list above. */
export function newDryRunBranches(sources: ReadonlyMap<string, string>, allowed: readonly string[]): string[] {
  return [...sources]
    .filter(([file, text]) => !/^src\/(exec|cli)\//.test(file) && /\bdryRun\b/.test(text) && !allowed.includes(file))
    .map(([file, text]) => `${file}:${text.split('\n').findIndex((l) => /\bdryRun\b/.test(l)) + 1}: branches on dryRun outside src/exec and src/cli; send the effect through the Executor instead`);
}

describe('dry-run stays in src/exec and src/cli', () => {
  test('no file beyond the shrinking list branches on dryRun', () => {
    const files = [...walk('src'), ...walk('runtimes')];
    const sources = new Map(files.map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]));
    assert.deepEqual(newDryRunBranches(sources, DRY_RUN_BRANCHES_LEFT), []);
  });

  test('a new file branching on dryRun is named', () => {
    const sources = new Map([
      ['src/exec/dry-run-executor.ts', 'readonly dryRun = true;'],
      ['src/components/etcd.ts', 'const a = 1;\nif (options.dryRun) skip();'],
    ]);
    assert.deepEqual(newDryRunBranches(sources, DRY_RUN_BRANCHES_LEFT), [
      'src/components/etcd.ts:2: branches on dryRun outside src/exec and src/cli; send the effect through the Executor instead',
    ]);
  });
});

describe('architecture checks can fail', () => {
  const table = loadTable();

  test('reads static, re-exported, dynamic and type-position imports with their lines', () => {
    const text = [
      "import { a } from '../util/log.js';",
      "export { b } from './other.js';",
      'const c = await import("../cluster/create.js");',
      "type D = import('../kube/index.js').KubeClient;",
      "import fs from 'node:fs';",
    ].join('\n');
    assert.deepEqual(importsOf('src/cli/x.ts', text), [
      { from: 'src/cli/x.ts', line: 1, to: 'src/util/log.ts' },
      { from: 'src/cli/x.ts', line: 2, to: 'src/cli/other.ts' },
      { from: 'src/cli/x.ts', line: 3, to: 'src/cluster/create.ts' },
      { from: 'src/cli/x.ts', line: 4, to: 'src/kube/index.ts' },
    ]);
  });

  test('a runtime importing src/cluster is named with file:line -> target', () => {
    const fake: ImportEdge = { from: 'runtimes/kind/kind-runtime.ts', line: 7, to: 'src/cluster/create.ts' };
    const [problem, ...rest] = forbiddenImports([fake], table);
    assert.equal(rest.length, 0);
    assert.match(problem ?? '', /^runtimes\/kind\/kind-runtime\.ts:7 -> src\/cluster\/create\.ts: runtimes\/kind may not import src\/cluster/);
  });

  test('gocompat importing kwok code is forbidden', () => {
    const fake: ImportEdge = { from: 'src/gocompat/gotpl/exec.ts', line: 3, to: 'src/util/log.ts' };
    assert.match(forbiddenImports([fake], table)[0] ?? '', /src\/gocompat may not import src\/util \(it may import: nothing/);
  });

  test('a deep import into src/kube names the entry file to use', () => {
    const fake: ImportEdge = { from: 'src/scale/scale.ts', line: 12, to: 'src/kube/client/http-client.ts' };
    assert.deepEqual(forbiddenImports([fake], table), ['src/scale/scale.ts:12 -> src/kube/client/http-client.ts: reaches into src/kube; import src/kube/index.ts or src/kube/user-kubeconfig.ts instead (export what you need there)']);
  });

  test('a cycle between layers is named with the imports that make it', () => {
    const fake: ImportEdge[] = [
      { from: 'src/config/load.ts', line: 11, to: 'src/components/component.ts' },
      { from: 'src/components/component.ts', line: 2, to: 'src/config/options.ts' },
      { from: 'src/components/index.ts', line: 4, to: 'src/config/load.ts' },
    ];
    assert.deepEqual(layerCycles(fake, table.layers), [
      'module cycle between src/components, src/config: src/components/component.ts:2 -> src/config/options.ts; src/config/load.ts:11 -> src/components/component.ts (remove one of these imports)',
    ]);
  });

  test('a table that lets two layers import each other is caught', () => {
    const layers: Layer[] = [
      { path: 'src/a', mayImport: ['src/b'] },
      { path: 'src/b', mayImport: ['src/c'] },
      { path: 'src/c', mayImport: ['src/a'] },
    ];
    assert.deepEqual(tableCycles(layers), [`${DOC} lets these layers import each other: src/a, src/b, src/c`]);
  });

  test('a file in no layer is reported', () => {
    assert.equal(layerOf('src/nowhere/x.ts', table.layers), undefined);
    assert.equal(layerOf('src/kwok/engine/stage-set.ts', table.layers), 'src/kwok/engine');
    assert.equal(layerOf('src/kwok/index.ts', table.layers), 'src/kwok');
  });
});
