// The two ways an OAuth client fails: nobody here can log in (the fix is `mcpwire login`), or the flow
// itself went wrong (metadata, registration, redirect, key or token), said in a sentence.

import { McpwireError } from '../../../jsonrpc/local-errors.js';

/** No usable token, and no way to ask a person for one here: the fix is to log in. */
export class LoginRequiredError extends McpwireError {
  override readonly name = 'LoginRequiredError';
  constructor(
    readonly resource: string,
    readonly issuer: string | undefined,
    reason: string,
  ) {
    super('LOGIN_REQUIRED', `${resource} needs a login${issuer ? ` at ${issuer}` : ''}: ${reason}`);
  }
}

/** The authorization flow failed: a metadata, registration, redirect, key or token problem, said in a sentence. */
export class AuthorizationError extends McpwireError {
  override readonly name = 'AuthorizationError';
  constructor(message: string, options?: { cause?: unknown }) {
    super('AUTHORIZATION', message, options);
  }
}

/** The token endpoint answered and refused (a 4xx with an OAuth error): the grant itself is no good. */
export class TokenRefusedError extends AuthorizationError {
  constructor(
    message: string,
    readonly status: number,
    readonly error: string | undefined,
  ) {
    super(message);
  }
}
