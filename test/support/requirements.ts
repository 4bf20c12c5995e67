// Citing the rules of spec/requirements.json in test names, checked by the type checker. Two forms:
//
//   it(cites('stdio.newline-delimited')`writes one message per line`, ...)
//   it(cites(['http.session-id', 'http.session-required'], 'refuses a request without a session'), ...)
//
// both give names of the bracketed form, '[stdio.newline-delimited] writes one message per line' and
// '[http.session-id, http.session-required] refuses a request without a session'. The tagged form is the one
// the tests use: a template literal keeps the formatter's layout of a test call (name and callback on one
// line), so citing a rule changes only the name, never the indentation of the body.
//
// An id the manifest does not have is a type error (`npm run typecheck`); test/spec/requirements.test.ts
// reads both forms as citations, as it reads the bracketed literal one. The ids must be string literals for
// that test to see them: a computed id is reported as an unknown citation.
//
// RequirementId comes from requirement-ids.ts, which is generated from the manifest and kept in step with
// it by test/spec/requirements.test.ts (MCPWIRE_UPDATE_GOLDEN=1 regenerates it).

import type { RequirementId } from './requirement-ids.js';

export type { RequirementId };

/** One id, or a non-empty list of them. */
export type Citation = RequirementId | readonly [RequirementId, ...RequirementId[]];

/** A template tag that prefixes the name it builds with the bracketed ids. */
export type CitingTag = (strings: TemplateStringsArray, ...values: unknown[]) => string;

/** The name of a test that checks the rule `id`, or each rule of `ids`: `[id, ...] title`. */
export function cites(ids: Citation, title: string): string;
/** A tag for the name of a test that checks the rule `id`, or each rule of `ids`: cites(id)`title`. */
export function cites(ids: Citation): CitingTag;
export function cites(ids: Citation, title?: string): string | CitingTag {
  const prefix = `[${(typeof ids === 'string' ? [ids] : ids).join(', ')}] `;
  if (title !== undefined) return prefix + title;
  return (strings, ...values) =>
    prefix + strings.reduce((name, piece, i) => name + (i > 0 ? String(values[i - 1]) : '') + piece, '');
}
