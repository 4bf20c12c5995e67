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
