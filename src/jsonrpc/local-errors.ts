// Errors that happen here, not at the peer: the connection closed, a request timed out or was cancelled,
// no era could be agreed, a name routes nowhere, a configuration is wrong. They share one base class with
// a string `code`, so a caller can tell them apart without matching messages, and they are never a
// JsonRpcError, which is reserved for an error the peer sent (or a handler throws to answer with).

/** Every local failure's code. */
export type McpwireErrorCode =
  | 'CONNECTION_CLOSED'
  | 'REQUEST_TIMEOUT'
  | 'REQUEST_CANCELLED'
  | 'NOT_CONNECTED'
  | 'ALREADY_CONNECTED'
  | 'UNSUPPORTED_VERSION'
  | 'INPUT_ROUNDS_EXCEEDED'
  | 'UNANSWERABLE_REQUEST'
  | 'NOT_IN_REVISION'
  | 'MESSAGE_TOO_LARGE'
  | 'PAGINATION_LOOP'
  | 'ROUTING'
  | 'CONFIG'
  | 'SERVER_UNAVAILABLE'
  | 'AUTHORIZATION'
  | 'LOGIN_REQUIRED'
  /** The inspector's page asked for something that cannot be done (bad input, nothing to run it with). */
  | 'INSPECT_REQUEST'
  | 'TASK_CANCELLED'
  | 'TASK_ENDED'
  | 'TASK_EXPIRED'
  | 'TASKS_UNAVAILABLE'
  | 'UNEXPECTED_TASK'
  | 'FLEET_UNAVAILABLE'
  | 'TOO_MANY_SESSIONS';

export class McpwireError extends Error {
  override readonly name: string = 'McpwireError';
  constructor(
    readonly code: McpwireErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A message this side was about to send is larger than the limit its transport writes. */
export class MessageTooLargeError extends McpwireError {
  override readonly name = 'MessageTooLargeError';
  constructor(
    readonly size: number,
    readonly limit: number,
  ) {
    super(
      'MESSAGE_TOO_LARGE',
      `the message is ${size} bytes, more than the ${limit} bytes a message may have here`,
    );
  }
}
