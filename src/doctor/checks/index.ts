// Every doctor check, in the order they run and are reported.

import type { Check } from '../check.js';
import { appChecks } from './apps.js';
import { contentChecks } from './content.js';
import { httpChecks } from './http.js';
import { jsonRpcChecks } from './jsonrpc.js';
import { lifecycleChecks } from './lifecycle.js';
import { statelessChecks } from './stateless.js';
import { stdioChecks } from './stdio.js';

export const allChecks: Check[] = [
  ...lifecycleChecks,
  ...jsonRpcChecks,
  ...stdioChecks,
  ...contentChecks,
  ...appChecks,
  ...statelessChecks,
  ...httpChecks,
];
