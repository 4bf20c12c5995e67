// Tools that change the database, registered only with --write: write_query (INSERT, UPDATE, DELETE) and
// create_table. Their statements run in a query process like reads do, so that they too can be cancelled
// and time-limited; SQLite rolls back whatever a killed statement left half done.

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
import { describeTable, describeText, tableNames } from './introspect.js';
import type { Parameters } from './query-messages.js';
import type { WriteResult } from './query-pool.js';
import { SCHEMA_URI } from './resources.js';
import { checkCreateTable, checkWriteStatement, shapeOf } from './sql-kind.js';
import { CELL_SCHEMA } from './values.js';

export function registerWriteTools(server: McpServer, options: SqliteOptions): void {
  server.tool(
    {
      name: 'write_query',
      title: 'Write query',
      description:
        'Run one INSERT, UPDATE or DELETE statement (REPLACE and WITH ... too) and report how many rows it changed. Put values in "params" with ? or :name placeholders. With RETURNING, the returned rows are given back.',
      inputSchema: {
        type: 'object',
        properties: {
          sql: { type: 'string', description: 'One INSERT, UPDATE or DELETE statement.' },
          params: PARAMS_SCHEMA,
          timeoutMs: timeoutSchema(options),
        },
        required: ['sql'],
        additionalProperties: false,
      },
      outputSchema: {
        type: 'object',
        properties: {
          changes: { type: 'integer', description: 'Rows inserted, updated or deleted.' },
          lastInsertRowid: {
            ...CELL_SCHEMA,
            description: 'The rowid of the last row inserted (INSERT only).',
          },
          columns: { type: 'array', items: { type: 'string' } },
          rows: { ...ROWS_SCHEMA, description: 'The rows of a RETURNING clause (empty without one).' },
          truncated: {
            type: 'boolean',
            description: 'RETURNING gave more rows than the row limit; only the first ones are here.',
          },
        },
        required: ['changes', 'columns', 'rows'],
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    async (args, request) => {
      const sql = String(args.sql);
      checkWriteStatement(sql);
      const result = await runWrite(
        options,
        sql,
        args.params as Parameters | undefined,
        args,
        request.signal,
      );
      const keys = uniqueKeys(result.columns);
      const structured: Record<string, unknown> = {
        changes: result.changes,
        columns: keys,
        rows: rowObjects(keys, result.rows),
      };
      let text = `${result.changes} ${result.changes === 1 ? 'row' : 'rows'} changed.`;
      // SQLite keeps the last inserted rowid across statements: it means something only after an insert.
      const verb = shapeOf(sql).verb;
      if (
        (verb === 'INSERT' || verb === 'REPLACE') &&
        result.changes > 0 &&
        result.lastInsertRowid !== null
      ) {
        structured.lastInsertRowid = result.lastInsertRowid;
        text += ` Last inserted rowid: ${String(result.lastInsertRowid)}.`;
      }
      if (result.truncated) {
        structured.truncated = true;
        text += result.overBytes
          ? ` RETURNING gave ${result.changes} rows; the first ${result.rows.length} are shown, the next would have made the answer larger than the maximum message size: ${narrowAdvice(options)}.`
          : ` RETURNING gave ${result.changes} rows; the first ${result.rows.length} (the row limit) are shown.`;
      }
      if (result.rows.length > 0) text += `\nReturned: ${JSON.stringify(structured.rows)}`;
      return { content: [{ type: 'text', text }], structuredContent: structured };
    },
  );

  server.tool(
    {
      name: 'create_table',
      title: 'Create table',
      description:
        'Create a table with one CREATE TABLE statement (IF NOT EXISTS and AS SELECT are allowed) and describe the new table.',
      inputSchema: {
        type: 'object',
        properties: {
          sql: { type: 'string', description: 'One CREATE TABLE statement.' },
          timeoutMs: timeoutSchema(options),
        },
        required: ['sql'],
        additionalProperties: false,
      },
      outputSchema: {
        type: 'object',
        properties: {
          created: {
            type: 'boolean',
            description: 'False when IF NOT EXISTS found the table there already.',
          },
          table: { type: ['string', 'null'] },
        },
        required: ['created', 'table'],
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    async (args, request) => {
      const sql = String(args.sql);
      checkCreateTable(sql);
      const before = new Set(tableNames(options.db, 'table'));
      await runWrite(options, sql, undefined, args, request.signal);
      const created = tableNames(options.db, 'table').find((name) => !before.has(name));
      if (created === undefined) {
        return {
          content: [{ type: 'text', text: 'No table was created: it exists already (IF NOT EXISTS).' }],
          structuredContent: { created: false, table: null },
        };
      }
      // The table is a new resource, and the schema changed: tell the clients that listen.
      server.notifyListChanged('resources');
      server.notifyResourceUpdated(SCHEMA_URI);
      const description = describeTable(options.db, created);
      return {
        content: [{ type: 'text', text: `Created ${description ? describeText(description) : created}` }],
        structuredContent: { created: true, table: created },
      };
    },
  );
}

async function runWrite(
  options: SqliteOptions,
  sql: string,
  params: Parameters | undefined,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<WriteResult> {
  try {
    return await options.pool.write(
      { sql, params, maxRows: options.maxRows, maxBytes: options.maxMessageSize, shape: 'returning' },
      { signal, timeoutMs: (args.timeoutMs as number | undefined) ?? options.queryTimeoutMs },
    );
  } catch (error) {
    throw explainFailure(error, options);
  }
}
