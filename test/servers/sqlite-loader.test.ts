// Loading better-sqlite3, an optional peer dependency: when it is not installed, the error says so and
// names the command that installs it; when it is there but does not load, the error is the binding's.
// Each case gives the loader a real require rooted in a temporary directory, so Node's own resolution
// decides what is found.

import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadSqlite, SqliteOpenError } from '../../src/servers/sqlite/database.js';
import { makeTempDir, removeDir } from '../support/fs-harness.js';

let directory: string;

before(async () => {
  directory = await makeTempDir('mcpwire-sqlite-loader-');
});

after(() => removeDir(directory));

/** A require as a module in `project` would have. */
function requireFrom(project: string): NodeJS.Require {
  mkdirSync(project, { recursive: true });
  return createRequire(path.join(project, 'index.js'));
}

function openError(load: () => unknown): SqliteOpenError {
  try {
    load();
  } catch (error) {
    assert.ok(error instanceof SqliteOpenError, `a SqliteOpenError, not ${String(error)}`);
    return error;
  }
  assert.fail('loadSqlite() did not throw');
}

describe('loadSqlite', () => {
  it('without better-sqlite3: says it is needed and how to install it', () => {
    const error = openError(() => loadSqlite(requireFrom(path.join(directory, 'empty'))));
    assert.equal(error.message, 'the SQLite server needs the better-sqlite3 package, which is not installed');
    assert.match(error.hint, /^Run "npm install better-sqlite3" where mcpwire is installed/);
    assert.match(error.hint, /npx -p mcpwire -p better-sqlite3 mcpwire serve sqlite/);
  });

  it('with a better-sqlite3 that fails to load: the binding error, not "not installed"', () => {
    const project = path.join(directory, 'broken');
    const pkg = path.join(project, 'node_modules', 'better-sqlite3');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(path.join(pkg, 'package.json'), '{"name":"better-sqlite3","main":"index.js"}');
    writeFileSync(path.join(pkg, 'index.js'), "module.exports = require('a-dependency-that-is-gone');");
    const error = openError(() => loadSqlite(requireFrom(project)));
    assert.match(error.message, /^the SQLite binding could not be loaded \(Cannot find module 'a-dependency/);
    assert.match(error.hint, /npm ci/);
  });

  it('from mcpwire itself: the Database class of the installed package', () => {
    const Database = loadSqlite();
    const db = new Database(':memory:');
    try {
      assert.deepEqual(db.prepare('SELECT 1 + 1 AS two').get(), { two: 2 });
    } finally {
      db.close();
    }
  });
});
