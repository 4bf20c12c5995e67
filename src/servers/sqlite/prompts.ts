// A prompt that sets a model to explore a database it has never seen: what is there, how the tables
// relate, what the data looks like, then (optionally) what it says about one topic.

import path from 'node:path';
import type { McpServer } from '../../server/server.js';
import type { SqliteOptions } from './context.js';
import { listTables } from './introspect.js';

/** Tables named in the prompt itself; more are left to list_tables. */
const NAMED_TABLES = 50;

export function registerPrompts(server: McpServer, options: SqliteOptions): void {
  server.prompt(
    {
      name: 'explore_database',
      title: 'Explore the database',
      description:
        'Explore an unknown SQLite database with the tools of this server: its tables, how they relate, what the data looks like, and what it says about a topic.',
      arguments: [
        {
          name: 'topic',
          description: 'What to find out about, e.g. "customers who stopped ordering" (optional).',
          required: false,
        },
      ],
    },
    (args) => {
      const tables = listTables(options.db);
      const overview =
        tables.length === 0
          ? 'It has no tables yet.'
          : `It has ${tables.length} tables and views:\n${tables
              .slice(0, NAMED_TABLES)
              .map((t) => `- ${t.name} (${t.type}): ${t.columns.join(', ')}`)
              .join('\n')}${tables.length > NAMED_TABLES ? '\n- ... (list_tables shows them all)' : ''}`;
      const topic = args.topic?.trim();
      const text = [
        `You are exploring the SQLite database ${path.basename(options.file)}${options.write ? '' : ', which is read-only'}. ${overview}`,
        '',
        'Work step by step:',
        '1. Call describe_table on the tables that look central, to learn their columns, keys and indexes; the foreign keys show how tables relate (the resource sqlite://schema has every CREATE statement at once).',
        '2. Look at a few rows of each with read_query (SELECT ... LIMIT 5) and count them (SELECT count(*) ...), to see what the data really holds: units, codes, NULLs, date formats.',
        '3. Put values in the "params" argument with ? placeholders, never into the SQL text; keep maxRows small and aggregate in SQL rather than reading whole tables.',
        topic
          ? `4. Then answer this, with the queries that support each point: ${topic}`
          : '4. Then summarise what the database is about, its main entities and how they relate, and three questions it could answer.',
      ].join('\n');
      return {
        description: topic ? `Explore the database about: ${topic}` : 'Explore the database',
        messages: [{ role: 'user', content: { type: 'text', text } }],
      };
    },
  );
}
