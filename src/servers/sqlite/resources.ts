// The database as resources: its whole schema as sqlite://schema, and one resource per table,
// sqlite://table/{name}, with the table's description and its first rows. Reading a table's rows goes
// through a query process like read_query, so it honours cancellation and the time limit too.

import { invalidParams, resourceNotFound } from '../../protocol/errors.js';
import type { McpServer } from '../../server/server.js';
import { UriTemplate } from '../../server/uri-template.js';
import { explainFailure, type SqliteOptions } from './context.js';
import { describeTable, describeText, schemaSql, tableNames } from './introspect.js';
import { renderTable } from './text-table.js';

export const SCHEMA_URI = 'sqlite://schema';
const TABLE_TEMPLATE = 'sqlite://table/{name}';
const FIRST_ROWS = 20;

export function registerResources(server: McpServer, options: SqliteOptions): void {
  const template = new UriTemplate(TABLE_TEMPLATE);

  server.resource(
    {
      uri: SCHEMA_URI,
      name: 'schema',
      title: 'Database schema',
      description: 'The CREATE statements of every table, view, index and trigger.',
      mimeType: 'application/sql',
    },
    (uri) => [{ uri, mimeType: 'application/sql', text: schemaSql(options.db) }],
  );

  server.resourceTemplate(
    {
      uriTemplate: TABLE_TEMPLATE,
      name: 'table',
      title: 'Tables',
      description: `One resource per table: its columns, keys, indexes and first ${FIRST_ROWS} rows.`,
      mimeType: 'text/plain',
      list: () =>
        tableNames(options.db, 'table').map((name) => ({
          uri: template.expand({ name }),
          name,
          title: `Table ${name}`,
          description: `The columns and first ${FIRST_ROWS} rows of ${name}.`,
          mimeType: 'text/plain',
        })),
      complete: {
        name: (value) =>
          tableNames(options.db).filter((name) => name.toLowerCase().startsWith(value.toLowerCase())),
      },
    },
    async (uri, variables, context) => {
      const requested = variables.name;
      if (typeof requested !== 'string' || requested === '') {
        throw invalidParams(`${uri} names no table; the form is ${TABLE_TEMPLATE}`, { uri });
      }
      const table = describeTable(options.db, requested);
      if (!table) throw resourceNotFound(uri);
      let rows: Awaited<ReturnType<typeof options.pool.read>>;
      try {
        rows = await options.pool.read(
          {
            sql: `SELECT * FROM "${table.name.replaceAll('"', '""')}"`,
            maxRows: FIRST_ROWS,
            // The description goes first: what is left of the message is for the rows.
            maxBytes: options.maxMessageSize - Buffer.byteLength(describeText(table)) * 2,
            shape: 'text-table',
          },
          { signal: context.signal, timeoutMs: options.queryTimeoutMs },
        );
      } catch (error) {
        throw explainFailure(error, options);
      }
      const shown =
        rows.rows.length === 0
          ? rows.overBytes
            ? '(the first row is too large to show here; read_query reads it, substr() a part of a long value)'
            : '(no rows)'
          : `${renderTable(rows.columns, rows.rows)}\n\n${rows.truncated ? `The first ${rows.rows.length} rows; read_query reads the rest.` : `${rows.rows.length} rows.`}`;
      return [{ uri, mimeType: 'text/plain', text: `${describeText(table)}\n\nfirst rows:\n${shown}\n` }];
    },
  );
}
