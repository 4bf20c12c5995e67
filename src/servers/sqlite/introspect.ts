// What the database holds: its tables and views, each table's columns, keys and indexes, and the schema
// as SQL. These are fixed, fast queries on the server's own connection; names are always bound as
// parameters of SQLite's pragma functions, never spliced into SQL.

import type { Database } from './database.js';

export interface TableSummary {
  name: string;
  type: 'table' | 'view';
  columns: string[];
}

export interface ColumnInfo {
  name: string;
  type: string;
  notNull: boolean;
  default: string | null;
  /** Position in the primary key (1, 2...), 0 when not part of it. */
  primaryKey: number;
  /** Generated (computed) columns are marked; they cannot be written. */
  generated: boolean;
}

export interface ForeignKeyInfo {
  columns: string[];
  table: string;
  references: Array<string | null>;
  onUpdate: string;
  onDelete: string;
}

export interface IndexInfo {
  name: string;
  unique: boolean;
  /** 'c' CREATE INDEX, 'u' a UNIQUE constraint, 'pk' the PRIMARY KEY. */
  origin: string;
  partial: boolean;
  /** Column names; an expression is shown as "<expression>". */
  columns: string[];
}

export interface TableDescription {
  name: string;
  type: 'table' | 'view';
  sql: string | null;
  columns: ColumnInfo[];
  foreignKeys: ForeignKeyInfo[];
  indexes: IndexInfo[];
}

// SQLite's own tables (sqlite_sequence, sqlite_stat1...) are bookkeeping, not data.
const USER_OBJECTS = `name NOT LIKE 'sqlite\\_%' ESCAPE '\\'`;

export function tableNames(db: Database, type: 'table' | 'view' | 'any' = 'any'): string[] {
  const filter = type === 'any' ? `type IN ('table', 'view')` : `type = '${type}'`;
  return db
    .prepare(`SELECT name FROM sqlite_schema WHERE ${filter} AND ${USER_OBJECTS} ORDER BY name`)
    .pluck()
    .all() as string[];
}

export function listTables(db: Database): TableSummary[] {
  const rows = db
    .prepare(
      `SELECT name, type FROM sqlite_schema WHERE type IN ('table', 'view') AND ${USER_OBJECTS} ORDER BY name`,
    )
    .all() as Array<{ name: string; type: 'table' | 'view' }>;
  const columnsOf = db.prepare('SELECT name FROM pragma_table_info(?)').pluck();
  return rows.map(({ name, type }) => {
    let columns: string[];
    try {
      columns = columnsOf.all(name) as string[];
    } catch {
      // A view over a table that is gone, or a virtual table whose module is not loaded.
      columns = [];
    }
    return { name, type, columns };
  });
}

/** The table or view named `name` (exactly, else ignoring case as SQLite does), or undefined. */
export function findTable(
  db: Database,
  name: string,
): { name: string; type: 'table' | 'view'; sql: string | null } | undefined {
  const find = (collate: string) =>
    db
      .prepare(
        `SELECT name, type, sql FROM sqlite_schema WHERE type IN ('table', 'view') AND name = ? ${collate} ORDER BY name LIMIT 1`,
      )
      .get(name) as { name: string; type: 'table' | 'view'; sql: string | null } | undefined;
  return find('') ?? find('COLLATE NOCASE');
}

export function describeTable(db: Database, name: string): TableDescription | undefined {
  const table = findTable(db, name);
  if (!table) return undefined;
  const columns = (
    db
      .prepare('SELECT name, type, "notnull", dflt_value, pk, hidden FROM pragma_table_xinfo(?)')
      .all(table.name) as Array<{
      name: string;
      type: string;
      notnull: number;
      dflt_value: string | null;
      pk: number;
      hidden: number;
    }>
  )
    // hidden 1 marks the hidden columns of virtual tables; 2 and 3 are generated columns, which are shown.
    .filter((c) => c.hidden !== 1)
    .map((c) => ({
      name: c.name,
      type: c.type,
      notNull: c.notnull === 1,
      default: c.dflt_value,
      primaryKey: c.pk,
      generated: c.hidden === 2 || c.hidden === 3,
    }));
  return {
    name: table.name,
    type: table.type,
    sql: table.sql,
    columns,
    foreignKeys: foreignKeys(db, table.name),
    indexes: indexes(db, table.name),
  };
}

function foreignKeys(db: Database, table: string): ForeignKeyInfo[] {
  const rows = db
    .prepare(
      'SELECT id, "table", "from", "to", on_update, on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq',
    )
    .all(table) as Array<{
    id: number;
    table: string;
    from: string;
    to: string | null;
    on_update: string;
    on_delete: string;
  }>;
  const byId = new Map<number, ForeignKeyInfo>();
  for (const row of rows) {
    let key = byId.get(row.id);
    if (!key) {
      key = {
        columns: [],
        table: row.table,
        references: [],
        onUpdate: row.on_update,
        onDelete: row.on_delete,
      };
      byId.set(row.id, key);
    }
    key.columns.push(row.from);
    // A null "to" means the referenced table's primary key.
    key.references.push(row.to);
  }
  return [...byId.values()];
}

function indexes(db: Database, table: string): IndexInfo[] {
  const list = db
    .prepare('SELECT name, "unique", origin, partial FROM pragma_index_list(?) ORDER BY name')
    .all(table) as Array<{
    name: string;
    unique: number;
    origin: string;
    partial: number;
  }>;
  const columnsOf = db.prepare('SELECT name FROM pragma_index_info(?) ORDER BY seqno').pluck();
  return list.map((index) => ({
    name: index.name,
    unique: index.unique === 1,
    origin: index.origin,
    partial: index.partial === 1,
    columns: (columnsOf.all(index.name) as Array<string | null>).map((c) => c ?? '<expression>'),
  }));
}

/** Every CREATE statement of the database, tables first, as one SQL text. */
export function schemaSql(db: Database): string {
  const rows = db
    .prepare(
      `SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL AND ${USER_OBJECTS}
       ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'view' THEN 1 WHEN 'index' THEN 2 ELSE 3 END, name`,
    )
    .pluck()
    .all() as string[];
  return rows.length > 0 ? `${rows.join(';\n\n')};\n` : '-- The database has no tables yet.\n';
}

/** A readable description of a table for tools and resources. */
export function describeText(table: TableDescription): string {
  const width = Math.max(4, ...table.columns.map((c) => c.name.length));
  const typeWidth = Math.max(4, ...table.columns.map((c) => c.type.length));
  const lines = [`${table.type} ${table.name}`, '', 'columns:'];
  for (const column of table.columns) {
    const notes: string[] = [];
    if (column.primaryKey > 0) notes.push('PRIMARY KEY');
    if (column.notNull) notes.push('NOT NULL');
    if (column.default !== null) notes.push(`DEFAULT ${column.default}`);
    if (column.generated) notes.push('GENERATED');
    for (const key of table.foreignKeys) {
      const at = key.columns.indexOf(column.name);
      if (at !== -1) notes.push(`-> ${key.table}(${key.references[at] ?? 'primary key'})`);
    }
    lines.push(
      `  ${column.name.padEnd(width)}  ${(column.type || '-').padEnd(typeWidth)}  ${notes.join(', ')}`.trimEnd(),
    );
  }
  if (table.indexes.length > 0) {
    lines.push('', 'indexes:');
    for (const index of table.indexes) {
      const kind = index.origin === 'pk' ? 'PRIMARY KEY' : index.unique ? 'UNIQUE' : 'INDEX';
      lines.push(
        `  ${index.name}  ${kind} (${index.columns.join(', ')})${index.partial ? ' WHERE ...' : ''}`,
      );
    }
  }
  return lines.join('\n');
}
