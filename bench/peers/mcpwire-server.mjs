// mcpwire's stdio server for the round-trip benchmark: a Connection on a StdioServerTransport with an
// `echo` handler. It exits by itself when stdin ends, once every response is flushed.
import { Connection, StdioServerTransport } from '../../dist/index.js';
import { serverStats } from './driver.mjs';

const connection = new Connection(new StdioServerTransport());
connection.onRequest('echo', (params) => params);
connection.onRequest('bench/stats', () => serverStats());
connection.start();
