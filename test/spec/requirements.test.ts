// The manifest of the specification's requirements (spec/requirements.json) and the tests that cite them.
// A test cites a requirement by its id in brackets in its name, it('[lifecycle.version-echo] ...'), or
// through the typed helper of test/support/requirements.ts, as a tag, it(cites('lifecycle.version-echo')`...`),
// or with the title as second argument.
// Citing an id the manifest does not have fails; requirements no test cites are listed as diagnostics.
//
// The helper's RequirementId type is generated from the manifest into test/support/requirement-ids.ts, and
// this file fails when that file is stale: MCPWIRE_UPDATE_GOLDEN=1 (run-tests --update) rewrites it. The
// JSON stays the one source that people edit; the generated file only lets the type checker see its ids.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

const root = path.resolve(import.meta.dirname, '..', '..');
const ID = /^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+$/;
const IDS_FILE = path.join(root, 'test', 'support', 'requirement-ids.ts');
const UPDATE = process.env.MCPWIRE_UPDATE_GOLDEN === '1';

interface Requirement {
  id: string;
  rule: string;
  source: string;
}

function loadManifest(): unknown {
  return JSON.parse(readFileSync(path.join(root, 'spec', 'requirements.json'), 'utf8'));
}

function testFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) testFiles(full, out);
    else if (name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

/**
 * The ids cited in the names of tests and suites of `source`: bracketed groups of ids, comma-separated.
 * A group built with `${...}` cannot be checked, so it is returned as cited under its raw text (which
 * is no known id, and fails).
 */
function citations(source: string): string[] {
  const ids: string[] = [];
  const names = /\b(?:it|test|describe)\(\s*(['"`])((?:(?!\1)[^\\]|\\.)*)\1/g;
  for (const [, , name] of source.matchAll(names)) {
    for (const [, group] of name!.matchAll(/\[([^\]]+)\]/g)) {
      const pieces = group!.split(',').map((p) => p.trim());
      if (group!.includes('${') && pieces.some((p) => /^[a-z0-9-]+\./.test(p))) {
        ids.push(group!);
        continue;
      }
      // Brackets that hold anything but dotted names are prose, not citations.
      if (pieces.every((p) => /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(p))) ids.push(...pieces);
    }
  }
  // The helper forms: a test name that calls cites() with one id or an array of ids, with the title as its
  // second argument or as the template it tags. Only string literals can be read here; anything else is
  // returned under its raw text, which is no known id, and fails.
  const helper = /\b(?:it|test|describe)\(\s*cites\(\s*(\[[^\]]*\]|(['"`])[^'"`]*\2|[^,)]+)/g;
  for (const [, argument] of source.matchAll(helper)) {
    const elements = argument!.startsWith('[') ? argument!.slice(1, -1).split(',') : [argument!];
    for (const element of elements.map((e) => e.trim()).filter((e) => e !== '')) {
      const literal = /^(['"`])([^'"`$]*)\1$/.exec(element);
      ids.push(literal ? literal[2]! : element);
    }
  }
  return ids;
}

/** The text of test/support/requirement-ids.ts for the ids of the manifest. */
function renderIds(ids: string[]): string {
  return [
    '// Generated from spec/requirements.json by test/spec/requirements.test.ts: do not edit. After changing the',
    '// manifest, run `MCPWIRE_UPDATE_GOLDEN=1 node scripts/run-tests.mjs test/spec/requirements` to rewrite it.',
    '',
    '/** Every id of spec/requirements.json, in its order. */',
    'export const REQUIREMENT_IDS = [',
    ...ids.map((id) => `  '${id}',`),
    '] as const;',
    '',
    '/** The id of a rule of spec/requirements.json: what test/support/requirements.ts cites. */',
    'export type RequirementId = (typeof REQUIREMENT_IDS)[number];',
    '',
  ].join('\n');
}

describe('spec/requirements.json', () => {
  const manifest = loadManifest();

  it('is an array of {id, rule, source} with unique, well-formed ids', () => {
    assert.ok(Array.isArray(manifest), 'the manifest is an array');
    const seen = new Set<string>();
    for (const entry of manifest as Requirement[]) {
      assert.deepEqual(Object.keys(entry).sort(), ['id', 'rule', 'source'], JSON.stringify(entry));
      assert.match(entry.id, ID, `id ${JSON.stringify(entry.id)} is not area.name`);
      assert.ok(entry.rule.trim().length > 10, `${entry.id}: the rule says nothing`);
      assert.match(
        entry.source,
        /^(\d{4}-\d{2}-\d{2}|JSON-RPC 2\.0|RFC \d+|mcpwire issue \d+)/,
        `${entry.id}: the source names no revision, JSON-RPC, RFC or issue`,
      );
      assert.ok(!seen.has(entry.id), `${entry.id} appears twice`);
      seen.add(entry.id);
    }
  });

  it('finds citations only in test names, and only bracketed dotted ids', () => {
    // Built from pieces, so that this file's own scan does not read the samples as citations.
    const [call, suite] = ['it', 'describe'];
    const sample = [
      `${call}('[a.b] one', () => {});`,
      `${call}(\`[c.d, e.f] two \${x}\`, () => {});`,
      `${suite}("[g.h-i] suite", () => {});`,
      `${call}('prose [in brackets] and [1, 2] are not cited', () => {});`,
      `${call}(\`[k.l, m.\${n}] computed \`, () => {});`,
      "const notAName = '[x.y]';",
      `${call}(cites('o.p', 'helper'), () => {});`,
      `${call}(\n  cites(\n    ['q.r', "s.t"],\n    \`helper, two ids \${x}\`,\n  ),\n  () => {},\n);`,
      `${call}(cites('w.x')\`tagged \${y}\`, () => {});`,
      `${call}(cites(['y.z', 'z.a'])\`tagged, two ids\`, () => {});`,
      `${suite}(cites(someId, 'computed'), () => {});`,
      "const notATest = cites('u.v', 'not a name');",
    ].join('\n');
    assert.deepEqual(citations(sample), [
      'a.b',
      'c.d',
      'e.f',
      'g.h-i',
      `k.l, m.${'$'}{n}`,
      'o.p',
      'q.r',
      's.t',
      'w.x',
      'y.z',
      'z.a',
      'someId',
    ]);
  });

  it('has its ids in test/support/requirement-ids.ts, generated from it (MCPWIRE_UPDATE_GOLDEN=1 rewrites it)', () => {
    const expected = renderIds((manifest as Requirement[]).map((r) => r.id));
    if (UPDATE) {
      writeFileSync(IDS_FILE, expected);
      return;
    }
    const actual = readFileSync(IDS_FILE, 'utf8');
    assert.equal(
      actual,
      expected,
      'test/support/requirement-ids.ts is stale: run `MCPWIRE_UPDATE_GOLDEN=1 node scripts/run-tests.mjs test/spec/requirements`',
    );
  });

  it('is cited by tests with known ids only, and reports what no test cites', (t) => {
    const known = new Set((manifest as Requirement[]).map((r) => r.id));
    const cited = new Map<string, string[]>();
    const unknown: string[] = [];
    for (const file of testFiles(path.join(root, 'test'))) {
      const relative = path.relative(root, file);
      for (const id of citations(readFileSync(file, 'utf8'))) {
        if (!known.has(id)) unknown.push(`${relative}: [${id}]`);
        cited.set(id, [...(cited.get(id) ?? []), relative]);
      }
    }
    assert.deepEqual(unknown, [], 'tests cite requirements the manifest does not have');
    const uncited = [...known].filter((id) => !cited.has(id));
    t.diagnostic(`${known.size - uncited.length} of ${known.size} requirements are cited by tests`);
    for (const id of uncited) t.diagnostic(`uncited: ${id}`);
  });
});
