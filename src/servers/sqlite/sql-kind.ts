// What kind of statement a piece of SQL is, read without SQLite: the first keyword, the verb a WITH
// clause leads to, and how many statements there are. Each tool accepts only its own kinds and refuses
// the rest with a message that says which tool fits. This is one of three guards on a read-only server:
// the connection is opened read-only, and SQLite's own statement.readonly is checked after preparing.

/** A refusal: the SQL does not fit the tool it was sent to. The message is meant for the model. */
export class StatementRefusedError extends Error {
  override readonly name = 'StatementRefusedError';
}

export interface StatementShape {
  /** How many statements the text holds (empty ones between semicolons do not count). */
  statements: number;
  /** The first keyword of the first statement, upper case ('' if there is none). */
  first: string;
  /** The verb that decides what the first statement does: WITH ... DELETE is a DELETE. */
  verb: string;
  /** The statement starts with EXPLAIN, so it only describes the plan. */
  explain: boolean;
}

type Token = { kind: 'word'; text: string } | { kind: 'punct'; text: string } | { kind: 'other' };

/** Words, punctuation and opaque tokens (strings, quoted names, numbers), comments skipped. */
function* tokens(sql: string): Generator<Token> {
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? sql.length : end + 1;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end === -1 ? sql.length : end + 2;
    } else if (c === "'" || c === '"' || c === '`' || c === '[') {
      // Strings and quoted names; a doubled quote inside is an escaped quote.
      const close = c === '[' ? ']' : c;
      let j = i + 1;
      while (j < sql.length) {
        if (sql[j] === close) {
          if (close !== ']' && sql[j + 1] === close) j += 2;
          else break;
        } else {
          j++;
        }
      }
      i = j + 1;
      yield { kind: 'other' };
    } else if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < sql.length && /[A-Za-z0-9_$]/.test(sql[j]!)) j++;
      yield { kind: 'word', text: sql.slice(i, j).toUpperCase() };
      i = j;
    } else if (c === ';' || c === '(' || c === ')' || c === ',') {
      i++;
      yield { kind: 'punct', text: c };
    } else {
      i++;
      yield { kind: 'other' };
    }
  }
}

const MAIN_VERBS = new Set(['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'REPLACE', 'VALUES']);

export function shapeOf(sql: string): StatementShape {
  let statements = 0;
  let inStatement = false;
  let first = '';
  let verb = '';
  let explain = false;
  let depth = 0;
  // Where the first statement stands: before its first keyword, after EXPLAIN, inside a WITH prelude.
  let phase: 'start' | 'explain' | 'with' | 'done' = 'start';
  for (const token of tokens(sql)) {
    if (token.kind === 'punct' && token.text === ';') {
      if (inStatement) statements++;
      inStatement = false;
      if (phase !== 'start') phase = 'done';
      continue;
    }
    inStatement = true;
    if (phase === 'done') continue;
    if (token.kind === 'punct') {
      if (token.text === '(') depth++;
      if (token.text === ')') depth--;
      continue;
    }
    if (token.kind !== 'word') continue;
    if (phase === 'start' || phase === 'explain') {
      if (phase === 'start') first = token.text;
      if (token.text === 'EXPLAIN' && phase === 'start') {
        explain = true;
        phase = 'explain';
      } else if (phase === 'explain' && (token.text === 'QUERY' || token.text === 'PLAN')) {
        // EXPLAIN QUERY PLAN: keep looking for the statement it explains.
      } else if (token.text === 'WITH') {
        phase = 'with';
      } else {
        verb = token.text;
        phase = 'done';
      }
    } else if (phase === 'with' && depth === 0 && MAIN_VERBS.has(token.text)) {
      // The common table expressions sit in parentheses; the first verb outside them is the statement's.
      verb = token.text;
      phase = 'done';
    }
  }
  if (inStatement) statements++;
  return { statements, first, verb, explain };
}

const WRITE_VERBS = new Set(['INSERT', 'UPDATE', 'DELETE', 'REPLACE']);

function refuseCommon(shape: StatementShape, tool: string): void {
  if (shape.statements === 0) throw new StatementRefusedError(`${tool} needs one SQL statement; got none`);
  if (shape.first === 'ATTACH' || shape.first === 'DETACH' || shape.verb === 'ATTACH') {
    throw new StatementRefusedError(
      `${shape.verb || shape.first} is refused: this server serves only the database it was started with`,
    );
  }
  if (shape.first === 'PRAGMA' || shape.verb === 'PRAGMA') {
    throw new StatementRefusedError(
      `PRAGMA statements are refused, because a PRAGMA can change the database or the connection; read a pragma with its table-valued function through read_query, e.g. SELECT * FROM pragma_table_info('users'), or use describe_table`,
    );
  }
}

function refuseSeveral(shape: StatementShape, tool: string): void {
  if (shape.statements > 1) {
    throw new StatementRefusedError(
      `${tool} runs exactly one statement; this SQL holds ${shape.statements}. Call the tool once per statement`,
    );
  }
}

/** Accepts one SELECT (or WITH ... SELECT, or EXPLAIN of one); `write` only changes the advice. */
export function checkReadStatement(sql: string, write: boolean): void {
  const shape = shapeOf(sql);
  refuseCommon(shape, 'read_query');
  if (shape.verb !== 'SELECT') {
    const what = shape.verb || shape.first || 'unrecognised';
    const advice = WRITE_VERBS.has(what)
      ? write
        ? 'use write_query for changes'
        : 'this server is read-only; start it with --write to allow changes'
      : what === 'CREATE' && write
        ? 'use create_table to make a table'
        : 'nothing else is run';
    throw new StatementRefusedError(
      `read_query runs only SELECT statements (or WITH ... SELECT); this is ${article(what)} ${what} statement, and ${advice}`,
    );
  }
  refuseSeveral(shape, 'read_query');
}

/** Accepts one INSERT, UPDATE, DELETE or REPLACE, with or without a WITH clause. */
export function checkWriteStatement(sql: string): void {
  const shape = shapeOf(sql);
  refuseCommon(shape, 'write_query');
  if (shape.explain || !WRITE_VERBS.has(shape.verb)) {
    const what = shape.explain ? 'EXPLAIN' : shape.verb || shape.first || 'unrecognised';
    const advice =
      what === 'SELECT' || what === 'EXPLAIN'
        ? 'use read_query to read'
        : what === 'CREATE'
          ? 'use create_table to make a table'
          : `${what} is not offered by this server`;
    throw new StatementRefusedError(
      `write_query runs only INSERT, UPDATE and DELETE statements; this is ${article(what)} ${what} statement: ${advice}`,
    );
  }
  refuseSeveral(shape, 'write_query');
}

/** Accepts one CREATE TABLE (not TEMP: a temporary table would vanish with the query's connection). */
export function checkCreateTable(sql: string): void {
  const shape = shapeOf(sql);
  refuseCommon(shape, 'create_table');
  const words = [...tokens(sql)].filter((t) => t.kind === 'word').map((t) => (t as { text: string }).text);
  if (words[0] !== 'CREATE' || words[1] !== 'TABLE') {
    const temporary = words[0] === 'CREATE' && (words[1] === 'TEMP' || words[1] === 'TEMPORARY');
    throw new StatementRefusedError(
      temporary
        ? 'create_table makes lasting tables only; a TEMP table would vanish as soon as the statement ends'
        : `create_table runs only CREATE TABLE statements; this one starts with ${words.slice(0, 2).join(' ') || 'nothing'}`,
    );
  }
  refuseSeveral(shape, 'create_table');
  // CREATE TABLE temp.x (or any schema but main) got past the TEMP refusal, and was then answered with
  // a misleading "exists already". The '.' after the name's first part is an 'other' token.
  const all = [...tokens(sql)];
  let at = 2;
  const wordAt = (i: number) => (all[i]?.kind === 'word' ? (all[i] as { text: string }).text : undefined);
  if (wordAt(at) === 'IF' && wordAt(at + 1) === 'NOT' && wordAt(at + 2) === 'EXISTS') at += 3;
  const schema = all[at];
  const dot = all[at + 1];
  if (schema && dot?.kind === 'other' && sql.includes('.')) {
    const name = wordAt(at);
    if (name === 'TEMP' || name === 'TEMPORARY') {
      throw new StatementRefusedError(
        'create_table makes lasting tables only; a table in the temp schema would vanish as soon as the statement ends',
      );
    }
    if (name !== 'MAIN' && qualifiedBy(sql)) {
      throw new StatementRefusedError(
        'create_table creates tables in the main database only; name the table without a schema, or as main.NAME',
      );
    }
  }
}

/** Whether the table name of a CREATE TABLE has a schema part ("schema.name", quoted or not). */
function qualifiedBy(sql: string): boolean {
  const afterTable = sql.replace(/^\s*create\s+table\s+(if\s+not\s+exists\s+)?/i, '');
  return /^("[^"]*"|`[^`]*`|\[[^\]]*\]|[A-Za-z_][A-Za-z0-9_$]*)\s*\./.test(afterTable);
}

function article(word: string): string {
  return /^[AEIOU]/.test(word) ? 'an' : 'a';
}
