// The statement-kind check, alone: which verb a statement really has (comments, strings, quoted names and
// WITH clauses cannot disguise it), how many statements there are, and what each tool refuses, with
// messages that name the tool to use instead.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  checkCreateTable,
  checkReadStatement,
  checkWriteStatement,
  StatementRefusedError,
  shapeOf,
} from '../../src/servers/sqlite/sql-kind.js';

function refusal(check: () => void): string {
  try {
    check();
  } catch (error) {
    assert.ok(error instanceof StatementRefusedError, `not a refusal: ${String(error)}`);
    return error.message;
  }
  assert.fail('the statement was accepted');
}

describe('shapeOf', () => {
  it('finds the verb behind comments, EXPLAIN and WITH clauses', () => {
    assert.deepEqual(shapeOf('  -- a comment\n /* another */ select 1'), {
      statements: 1,
      first: 'SELECT',
      verb: 'SELECT',
      explain: false,
    });
    assert.equal(shapeOf('WITH x(a) AS (SELECT 1) DELETE FROM t WHERE a IN x').verb, 'DELETE');
    assert.equal(
      shapeOf(
        'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c), d AS (VALUES (2)) SELECT * FROM c',
      ).verb,
      'SELECT',
    );
    assert.deepEqual(shapeOf('EXPLAIN QUERY PLAN SELECT 1'), {
      statements: 1,
      first: 'EXPLAIN',
      verb: 'SELECT',
      explain: true,
    });
  });

  it('counts statements, ignoring semicolons inside strings, quoted names and comments', () => {
    assert.equal(shapeOf('SELECT \';\' AS "a;b", [c;d], `e;f` -- ; x\n').statements, 1);
    assert.equal(shapeOf('SELECT 1; SELECT 2').statements, 2);
    assert.equal(shapeOf('SELECT 1;;  ; -- nothing after\n').statements, 1);
    assert.equal(shapeOf("SELECT 'it''s'; DELETE FROM t").statements, 2);
    assert.equal(shapeOf('  ').statements, 0);
  });

  it('is not fooled by keywords inside strings or quoted names', () => {
    assert.equal(shapeOf('SELECT \'DELETE FROM t\' AS "DROP"').verb, 'SELECT');
    assert.equal(shapeOf('WITH "select" AS (SELECT 1) DELETE FROM t').verb, 'DELETE');
  });
});

describe('what each tool accepts', () => {
  it('read_query takes one SELECT and refuses everything else with the tool to use', () => {
    checkReadStatement('SELECT * FROM users WHERE id = ?', false);
    checkReadStatement('with a as (select 1) select * from a;', false);
    checkReadStatement('EXPLAIN QUERY PLAN SELECT 1', false);
    assert.match(
      refusal(() => checkReadStatement('DELETE FROM users', false)),
      /DELETE.*read-only.*--write/,
    );
    assert.match(
      refusal(() => checkReadStatement('DELETE FROM users', true)),
      /use write_query/,
    );
    assert.match(
      refusal(() => checkReadStatement('WITH x AS (SELECT 1) UPDATE t SET a = 1', true)),
      /UPDATE/,
    );
    assert.match(
      refusal(() => checkReadStatement('SELECT 1; SELECT 2', false)),
      /exactly one statement.*2/,
    );
    assert.match(
      refusal(() => checkReadStatement('SELECT 1; DROP TABLE users', false)),
      /exactly one/,
    );
    assert.match(
      refusal(() => checkReadStatement("ATTACH 'x.db' AS x", false)),
      /ATTACH is refused/,
    );
    assert.match(
      refusal(() => checkReadStatement('DETACH x', false)),
      /DETACH is refused/,
    );
    assert.match(
      refusal(() => checkReadStatement('PRAGMA user_version = 3', false)),
      /pragma_table_info/,
    );
    assert.match(
      refusal(() => checkReadStatement("VACUUM INTO '/tmp/copy.db'", false)),
      /VACUUM/,
    );
    assert.match(
      refusal(() => checkReadStatement('CREATE TABLE t (a)', true)),
      /create_table/,
    );
    assert.match(
      refusal(() => checkReadStatement('-- only a comment', false)),
      /got none/,
    );
    assert.match(
      refusal(() => checkReadStatement('EXPLAIN DELETE FROM t', false)),
      /DELETE/,
    );
  });

  it('write_query takes INSERT, UPDATE, DELETE and REPLACE only', () => {
    checkWriteStatement('INSERT INTO t VALUES (1)');
    checkWriteStatement('insert or replace into t values (1)');
    checkWriteStatement('REPLACE INTO t VALUES (1)');
    checkWriteStatement('UPDATE t SET a = ?');
    checkWriteStatement('WITH old AS (SELECT 1) DELETE FROM t WHERE a IN old RETURNING *');
    assert.match(
      refusal(() => checkWriteStatement('SELECT 1')),
      /use read_query/,
    );
    assert.match(
      refusal(() => checkWriteStatement('CREATE TABLE t (a)')),
      /use create_table/,
    );
    assert.match(
      refusal(() => checkWriteStatement('DROP TABLE users')),
      /DROP is not offered/,
    );
    assert.match(
      refusal(() => checkWriteStatement('PRAGMA journal_mode = DELETE')),
      /PRAGMA/,
    );
    assert.match(
      refusal(() => checkWriteStatement("ATTACH ':memory:' AS m")),
      /ATTACH/,
    );
    assert.match(
      refusal(() => checkWriteStatement('DELETE FROM a; DELETE FROM b')),
      /exactly one/,
    );
  });

  it('create_table takes one lasting CREATE TABLE', () => {
    checkCreateTable('CREATE TABLE t (a INTEGER PRIMARY KEY)');
    checkCreateTable('create table if not exists t as select 1 as a');
    assert.match(
      refusal(() => checkCreateTable('CREATE TEMP TABLE t (a)')),
      /TEMP/,
    );
    // bug: a temp-schema name got past the TEMP refusal (and was answered "it exists already").
    for (const sql of ['CREATE TABLE temp.x (a)', 'create table if not exists TEMPORARY.x (a)']) {
      assert.match(
        refusal(() => checkCreateTable(sql)),
        /temp schema would vanish/,
        sql,
      );
    }
    for (const sql of [
      'CREATE TABLE "temp".x (a)',
      'CREATE TABLE other.x (a)',
      'CREATE TABLE [aux] . x (a)',
    ]) {
      assert.match(
        refusal(() => checkCreateTable(sql)),
        /main database only/,
        sql,
      );
    }
    checkCreateTable('CREATE TABLE main.x (a)');
    checkCreateTable('CREATE TABLE "a.b" (a)');
    assert.match(
      refusal(() => checkCreateTable('CREATE INDEX i ON t (a)')),
      /CREATE INDEX/,
    );
    assert.match(
      refusal(() => checkCreateTable('CREATE TABLE a (x); CREATE TABLE b (y)')),
      /exactly one/,
    );
    assert.match(
      refusal(() => checkCreateTable('DROP TABLE t')),
      /only CREATE TABLE/,
    );
  });
});
