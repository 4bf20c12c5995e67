// Citing the rules of spec/requirements.json from test names, checked by the type checker.
//
//   it(cites('stdio.newline-delimited', 'writes one message per line'), ...)
//   it(cites(['http.session-id', 'http.session-required'], 'refuses a request without a session'), ...)
//
// give the names '[stdio.newline-delimited] writes one message per line' and
// '[http.session-id, http.session-required] refuses a request without a session'. An id the manifest does
// not have is a type error (`npm run typecheck`); test/spec/requirements.test.ts reads these calls as
// citations, as it reads the bracketed literal form. The ids must be string literals for that test to see
// them: a computed id is reported as an unknown citation.
//
// RequirementId comes from requirement-ids.ts, which is generated from the manifest and kept in step with
// it by test/spec/requirements.test.ts (MCPWIRE_UPDATE_GOLDEN=1 regenerates it).

import type { RequirementId } from './requirement-ids.js';

export type { RequirementId };

/** The name of a test that checks the rule `id`, or each rule of `ids`: `[id, ...] title`. */
export function cites(
  ids: RequirementId | readonly [RequirementId, ...RequirementId[]],
  title: string,
): string {
  const list: readonly string[] = typeof ids === 'string' ? [ids] : ids;
  return `[${list.join(', ')}] ${title}`;
}
