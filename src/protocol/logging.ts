// Logging levels in order of severity (RFC 5424, as the specification maps them).

import type { LoggingLevel } from './types.js';

export const LOGGING_LEVELS: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

export function isLoggingLevel(value: unknown): value is LoggingLevel {
  return (LOGGING_LEVELS as readonly unknown[]).includes(value);
}

/** Whether a message at `level` passes a threshold of `minimum`. */
export function passesLevel(level: LoggingLevel, minimum: LoggingLevel): boolean {
  return LOGGING_LEVELS.indexOf(level) >= LOGGING_LEVELS.indexOf(minimum);
}

/**
 * The params of a notifications/message, or undefined when the message does not pass `minimum` (unset:
 * every message passes). Both eras build their log messages here.
 */
export function logMessage(
  level: LoggingLevel,
  data: unknown,
  logger: string | undefined,
  minimum: LoggingLevel | undefined,
): Record<string, unknown> | undefined {
  if (minimum !== undefined && !passesLevel(level, minimum)) return undefined;
  return logger === undefined ? { level, data } : { level, logger, data };
}
