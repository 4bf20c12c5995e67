// The public API is chosen, not an accident: every name each entry point exports (values and types) is
// pinned in public-api.json, so that adding, removing or renaming one is a deliberate change reviewed
// with the diff of that file. MCPWIRE_UPDATE_GOLDEN=1 (run-tests --update) rewrites it. The entry
// points use named exports only: an `export *` would let internals through unseen.

import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '..', '..');
const PINNED = path.join(import.meta.dirname, 'public-api.json');
/** Entry points, as package.json's exports name them. */
const ENTRIES: Record<string, string> = {
  mcpwire: 'src/index.ts',
  'mcpwire/jsonrpc': 'src/jsonrpc.ts',
  'mcpwire/server': 'src/server.ts',
};

function exportedNames(): Record<string, string[]> {
  const files = Object.values(ENTRIES).map((f) => path.join(root, f));
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const out: Record<string, string[]> = {};
  for (const [entry, file] of Object.entries(ENTRIES)) {
    const source = program.getSourceFile(path.join(root, file));
    assert.ok(source, `${file} is not in the program`);
    const symbol = checker.getSymbolAtLocation(source);
    assert.ok(symbol, `${file} is not a module`);
    out[entry] = checker
      .getExportsOfModule(symbol)
      .map((s) => {
        const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
        return `${target.flags & ts.SymbolFlags.Value ? 'value' : 'type'} ${s.name}`;
      })
      .sort();
  }
  return out;
}

describe('the public API', () => {
  it('entry points use named exports only', () => {
    for (const file of Object.values(ENTRIES)) {
      const text = readFileSync(path.join(root, file), 'utf8');
      assert.doesNotMatch(text, /export\s+\*/, `${file} re-exports a whole module`);
    }
  });

  it('every entry point exports exactly the pinned names', () => {
    const actual = exportedNames();
    if (process.env.MCPWIRE_UPDATE_GOLDEN === '1') {
      writeFileSync(PINNED, `${JSON.stringify(actual, null, 2)}\n`);
      return;
    }
    const pinned = JSON.parse(readFileSync(PINNED, 'utf8')) as Record<string, string[]>;
    for (const entry of Object.keys(ENTRIES)) {
      const added = actual[entry]!.filter((n) => !pinned[entry]?.includes(n));
      const removed = (pinned[entry] ?? []).filter((n) => !actual[entry]!.includes(n));
      assert.deepEqual(
        { added, removed },
        { added: [], removed: [] },
        `${entry} changed; if that is meant, run: node scripts/run-tests.mjs --update test/architecture/public-api`,
      );
    }
  });

  it('package.json exports every entry point, built', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      exports: Record<string, { types: string; default: string }>;
    };
    for (const [entry, file] of Object.entries(ENTRIES)) {
      const key = entry === 'mcpwire' ? '.' : `./${entry.slice('mcpwire/'.length)}`;
      const base = path.basename(file, '.ts');
      assert.deepEqual(pkg.exports[key], { types: `./dist/${base}.d.ts`, default: `./dist/${base}.js` });
    }
  });
});
