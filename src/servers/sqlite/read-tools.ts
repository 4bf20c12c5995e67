// Tools that only read: list_tables, describe_table, read_query. They are offered by every SQLite server,
// read-only or not; read_query always runs on a read-only connection, even when the server may write.

import type { McpServer } from '../../server/server.js';
import {
  explainFailure,
  narrowAdvice,
  PARAMS_SCHEMA,
  ROWS_SCHEMA,
  rowObjects,
  type SqliteOptions,
  timeoutSchema,
  uniqueKeys,
} from './context.js';
import { describeTable, describeText, listTables, tableNames } from './introspect.js';
import type { Parameters } from './query-messages.js';
import { checkReadStatement } from './sql-kind.js';
import { renderTable } from './text-table.js';

const DEFAULT_ROWS = 100;

export function registerReadTools(server: McpServer, options: SqliteOptions): void {
  server.tool(
    {
      name: 'list_tables',
      title: 'List tables',
      description: 'List the tables and views of the database, each with its column names.',
      outputSchema: {
        type: 'object',
        properties: {
          tables: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                name: { type: 'string' },
                type: { enum: ['table', 'view'] },
                columns: { type: 'array', items: { type: 'string' } },
              },
              required: ['name', 'type', 'columns'],
            },
          },
        },
        required: ['tables'],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () => {
      const tables = listTables(options.db);
      const text =
        tables.map((t) => `${t.name} (${t.type}): ${t.columns.join(', ')}`).join('\n') ||
        'The database has no tables yet.';
      return { content: [{ type: 'text', text }], structuredContent: { tables } };
    },
  );

  server.tool(
    {
      name: 'describe_table',
      title: 'Describe table',
      description:
        'The columns of a table or view (name, declared type, NOT NULL, default, primary key), its foreign keys, its indexes and its CREATE statement.',
      inputSchema: {
        type: 'object',
        properties: { table: { type: 'string', description: 'The name of a table or view.' } },
        required: ['table'],
        additionalProperties: false,
      },
      outputSchema: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          type: { enum: ['table', 'view'] },
          sql: { type: ['string', 'null'] },
          columns: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                name: { type: 'string' },
                type: { type: 'string' },
                notNull: { type: 'boolean' },
                default: { type: ['string', 'null'] },
                primaryKey: { type: 'integer' },
                generated: { type: 'boolean' },
              },
              required: ['name', 'type', 'notNull', 'default', 'primaryKey', 'generated'],
            },
          },
          foreignKeys: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                columns: { type: 'array', items: { type: 'string' } },
                table: { type: 'string' },
                references: { type: 'array', items: { type: ['string', 'null'] } },
                onUpdate: { type: 'string' },
                onDelete: { type: 'string' },
              },
              required: ['columns', 'table', 'references'],
            },
          },
          indexes: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                name: { type: 'string' },
                unique: { type: 'boolean' },
                origin: { type: 'string' },
                partial: { type: 'boolean' },
                columns: { type: 'array', items: { type: 'string' } },
              },
              required: ['name', 'unique', 'columns'],
            },
          },
        },
        required: ['name', 'type', 'columns', 'foreignKeys', 'indexes'],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => {
      const name = String(args.table);
      const table = describeTable(options.db, name);
      if (!table) {
        const known = tableNames(options.db);
        throw new Error(
          `there is no table or view named "${name}"; ${known.length > 0 ? `the database has: ${known.join(', ')}` : 'the database has no tables yet'}`,
        );
      }
      return {
        content: [{ type: 'text', text: `${describeText(table)}\n\n${table.sql ?? ''}`.trimEnd() }],
        structuredContent: { ...table },
      };
    },
  );

  server.tool(
    {
      name: 'read_query',
      title: 'Read query',
      description: `Run one SELECT statement (WITH ... SELECT and EXPLAIN QUERY PLAN too) and return its rows, as a text table and as structured rows. Put values in "params" and refer to them with ? or :name placeholders; never splice them into the SQL. At most ${options.maxRows} rows are returned (maxRows, default ${Math.min(DEFAULT_ROWS, options.maxRows)}); a statement running longer than its time limit is stopped. Anything that changes the database is refused.`,
      inputSchema: {
        type: 'object',
        properties: {
          sql: { type: 'string', description: 'One SELECT statement.' },
          params: PARAMS_SCHEMA,
          maxRows: {
            type: 'integer',
            minimum: 1,
            maximum: options.maxRows,
            description: `Rows to return at most (default ${Math.min(DEFAULT_ROWS, options.maxRows)}). If there are more, "truncated" is true.`,
          },
          timeoutMs: timeoutSchema(options),
        },
        required: ['sql'],
        additionalProperties: false,
      },
      outputSchema: {
        type: 'object',
        properties: {
          columns: { type: 'array', items: { type: 'string' } },
          rows: ROWS_SCHEMA,
          rowCount: { type: 'integer' },
          truncated: {
            type: 'boolean',
            description:
              'More rows were left out: there were more than maxRows, or the next would have made the answer larger than the maximum message size (the text says which, and how to narrow the query).',
          },
        },
        required: ['columns', 'rows', 'rowCount', 'truncated'],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args, request) => {
      const sql = String(args.sql);
      checkReadStatement(sql, options.write);
      const maxRows = (args.maxRows as number | undefined) ?? Math.min(DEFAULT_ROWS, options.maxRows);
      let result: Awaited<ReturnType<typeof options.pool.read>>;
      try {
        result = await options.pool.read(
          {
            sql,
            params: args.params as Parameters | undefined,
            maxRows,
            maxBytes: options.maxMessageSize,
            shape: 'table',
          },
          {
            signal: request.signal,
            timeoutMs: (args.timeoutMs as number | undefined) ?? options.queryTimeoutMs,
            onRows: (rows) => request.progress(rows, undefined, `${rows} rows so far`),
          },
        );
      } catch (error) {
        throw explainFailure(error, options);
      }
      const keys = uniqueKeys(result.columns);
      const count = result.rows.length;
      if (result.overBytes && count === 0) {
        throw new Error(
          `the first row alone would make the answer larger than the maximum message size: ${narrowAdvice(options)}`,
        );
      }
      const summary = result.overBytes
        ? `The first ${count} rows; the next would make the answer larger than the maximum message size: ${narrowAdvice(options)}.`
        : result.truncated
          ? `The first ${count} rows; there are more: raise maxRows (at most ${options.maxRows}) or narrow the query.`
          : `${count} ${count === 1 ? 'row' : 'rows'}.`;
      return {
        content: [{ type: 'text', text: `${renderTable(keys, result.rows)}\n\n${summary}` }],
        structuredContent: {
          columns: keys,
          rows: rowObjects(keys, result.rows),
          rowCount: count,
          truncated: result.truncated,
        },
      };
    },
  );
}
