// The checker behind test/architecture/layering.test.ts, kept apart from the test so that its rules can be
// fed synthetic graphs: a layering test that only ever sees the real tree could pass because it checks
// nothing. It parses with the TypeScript compiler API rather than a regex so that imports inside strings or
// comments are not mistaken for real ones, and type-only imports are seen like any other.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** One `from '...'`, `import('...')` or `import type` of a file, as written and as resolved. */
export interface ImportEdge {
  /** Files are named relative to the repository root with forward slashes, e.g. `src/cli/main.ts`. */
  from: string;
  specifier: string;
  /** The file the specifier names, or undefined for a package or a built-in module. */
  to: string | undefined;
  typeOnly: boolean;
}

/** Every .ts file below `dir`, relative to `root`, sorted so that messages come out in a stable order. */
export function listTsFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  const walk = (abs: string) => {
    for (const name of readdirSync(abs).sort()) {
      const child = path.join(abs, name);
      if (statSync(child).isDirectory()) walk(child);
      else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(toPosix(path.relative(root, child)));
    }
  };
  walk(path.join(root, dir));
  return out;
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

/** A module specifier as written, or undefined when the argument is computed and cannot be followed. */
function literalText(node: ts.Node | undefined): string | undefined {
  if (node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))) return node.text;
  return undefined;
}

/** The specifiers one source text imports or re-exports, including dynamic and type-position imports. */
export function importsOf(fileName: string, text: string): { specifier: string; typeOnly: boolean }[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: { specifier: string; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      const specifier = literalText(node.moduleSpecifier);
      const clause = node.importClause;
      if (specifier !== undefined) found.push({ specifier, typeOnly: clause?.isTypeOnly ?? false });
    } else if (ts.isExportDeclaration(node)) {
      const specifier = literalText(node.moduleSpecifier);
      if (specifier !== undefined) found.push({ specifier, typeOnly: node.isTypeOnly });
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const specifier = literalText(node.moduleReference.expression);
      if (specifier !== undefined) found.push({ specifier, typeOnly: node.isTypeOnly });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const specifier = literalText(node.arguments[0]);
      if (specifier !== undefined) found.push({ specifier, typeOnly: false });
    } else if (ts.isImportTypeNode(node)) {
      // `import('./x.js').Type` in a type position: erased at run time, but still a dependency.
      const argument = ts.isLiteralTypeNode(node.argument) ? literalText(node.argument.literal) : undefined;
      if (argument !== undefined) found.push({ specifier: argument, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * The file a relative specifier names. Sources import `./x.js` for `./x.ts` (NodeNext), so the .js is
 * mapped back; a specifier with no extension may name a .ts file or a folder's index.ts.
 */
export function resolveSpecifier(from: string, specifier: string, exists: (file: string) => boolean) {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  const candidates = [base];
  if (/\.[mc]?js$/.test(base)) candidates.unshift(base.replace(/\.([mc]?)js$/, '.$1ts'));
  else if (!base.endsWith('.ts')) candidates.push(`${base}.ts`, `${base}/index.ts`);
  return candidates.find(exists) ?? base;
}

/** The import edges of every file, resolved against the set of files themselves. */
export function buildGraph(root: string, files: string[]): ImportEdge[] {
  const known = new Set(files);
  const edges: ImportEdge[] = [];
  for (const file of files) {
    for (const { specifier, typeOnly } of importsOf(file, readFileSync(path.join(root, file), 'utf8'))) {
      const to = resolveSpecifier(file, specifier, (f) => known.has(f));
      edges.push({ from: file, specifier, to, typeOnly });
    }
  }
  return edges;
}

/** The layers bottom to top; the folders in one entry share a level and must not import each other. */
export type LayerOrder = readonly (readonly string[])[];

/** The folder of a file directly under `srcDir` (`src/cli/x/y.ts` → `cli`), or undefined for a top-level file. */
export function topFolder(file: string, srcDir = 'src'): string | undefined {
  const rest = file.slice(srcDir.length + 1).split('/');
  return rest.length > 1 ? rest[0] : undefined;
}

function levelOf(order: LayerOrder): Map<string, number> {
  const level = new Map<string, number>();
  order.forEach((folders, index) => {
    for (const folder of folders) level.set(folder, index);
  });
  return level;
}

/** Folders under src/ that no layer names, and layer names no folder has: either way the map is stale. */
export function unplacedFolders(order: LayerOrder, folders: readonly string[]) {
  const level = levelOf(order);
  const present = new Set(folders);
  return {
    unplaced: folders.filter((f) => !level.has(f)),
    missing: [...level.keys()].filter((f) => !present.has(f)),
  };
}

/** One message per edge that breaks the order; files directly under `srcDir` (entry points) may import anything. */
export function layerViolations(order: LayerOrder, edges: readonly ImportEdge[], srcDir = 'src'): string[] {
  const level = levelOf(order);
  const describe = (folder: string) =>
    order[level.get(folder)!]!.length > 1
      ? `${folder} (level ${order[level.get(folder)!]!.join(' | ')})`
      : folder;
  const problems: string[] = [];
  for (const edge of edges) {
    if (edge.to === undefined || !edge.from.startsWith(`${srcDir}/`)) continue;
    const fromFolder = topFolder(edge.from, srcDir);
    if (fromFolder === undefined) continue;
    const where = `${edge.from} imports '${edge.specifier}'${edge.typeOnly ? ' (type only)' : ''}`;
    if (!edge.to.startsWith(`${srcDir}/`)) {
      problems.push(
        `${where}: resolves to ${edge.to}, outside ${srcDir}/; library code imports only library code`,
      );
      continue;
    }
    const toFolder = topFolder(edge.to, srcDir);
    if (toFolder === undefined) {
      // An entry point re-exports the layers, so importing one from inside a layer reaches every layer.
      problems.push(`${where}: ${edge.to} is an entry point; a layer imports the module it needs directly`);
      continue;
    }
    if (fromFolder === toFolder) continue;
    const a = level.get(fromFolder);
    const b = level.get(toFolder);
    if (a === undefined || b === undefined) continue; // reported by unplacedFolders
    if (b > a) {
      problems.push(
        `${where}: ${describe(fromFolder)} is below ${describe(toFolder)} and must not import from it`,
      );
    } else if (b === a) {
      problems.push(`${where}: ${fromFolder} and ${toFolder} share a level and must not import each other`);
    }
  }
  return problems;
}

/**
 * Import cycles: each strongly-connected component of more than one file, and each file that imports
 * itself, written as one closed path through it (`a -> b -(type)-> a`), type-only steps marked.
 */
export function importCycles(edges: readonly ImportEdge[]): string[] {
  const next = new Map<string, ImportEdge[]>();
  for (const edge of edges) {
    if (edge.to === undefined) continue;
    const list = next.get(edge.from) ?? [];
    list.push(edge);
    next.set(edge.from, list);
  }
  const nodes = [...new Set(edges.flatMap((e) => (e.to === undefined ? [e.from] : [e.from, e.to])))].sort();

  // Tarjan's algorithm, iterative so that a deep graph cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const start of nodes) {
    if (index.has(start)) continue;
    const work: { node: string; edge: number }[] = [{ node: start, edge: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const out = next.get(frame.node) ?? [];
      if (frame.edge < out.length) {
        const to = out[frame.edge++]!.to!;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        components.push(component.sort());
      }
    }
  }

  const cycles: string[] = [];
  for (const component of components) {
    const members = new Set(component);
    const first = component[0]!;
    const selfEdge = (next.get(first) ?? []).find((e) => e.to === first);
    if (component.length === 1 && !selfEdge) continue;
    const path = selfEdge ? [selfEdge] : shortestLoop(first, members, next);
    // The arrow says how each step imports: `-(type)->` for an import erased at run time.
    const steps = path.map((e) => `${e.typeOnly ? '-(type)->' : '->'} ${e.to}`);
    // The loop printed is the shortest one; a larger component has more files caught in it, named too.
    const rest = component.filter((f) => !path.some((e) => e.to === f));
    const others = rest.length > 0 ? ` (in one component with ${rest.join(', ')})` : '';
    cycles.push(`${first} ${steps.join(' ')}${others}`);
  }
  return cycles;
}

/** The shortest path from `start` back to itself inside one component, breadth first. */
function shortestLoop(start: string, members: Set<string>, next: Map<string, ImportEdge[]>): ImportEdge[] {
  const via = new Map<string, ImportEdge>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const edge of next.get(node) ?? []) {
      const to = edge.to!;
      if (!members.has(to)) continue;
      if (to === start) {
        const path = [edge];
        for (let at = node; at !== start; at = via.get(at)!.from) path.unshift(via.get(at)!);
        return path;
      }
      if (!via.has(to)) {
        via.set(to, edge);
        queue.push(to);
      }
    }
  }
  return []; // unreachable for a strongly-connected component
}

/**
 * String literals in a source text that are, or look like, MCP method names. Literals only: comments are
 * not nodes of the tree, so a comment that names a method is not found. Module specifiers are skipped.
 */
export function methodNameLiterals(
  fileName: string,
  text: string,
  isMethodName: (s: string) => boolean,
): { line: number; text: string }[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: { line: number; text: string }[] = [];
  const visit = (node: ts.Node) => {
    // A specifier names a file, not a method; an import declaration holds no other literal.
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) return;
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      if (isMethodName(node.text)) {
        found.push({
          line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
          text: node.text,
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
