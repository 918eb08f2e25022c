/** The log domain's door: the redacting pino logger and the redaction it applies to every record. */
export { createLogger, type Logger, type LoggerSettings } from './logger'
export { redactDeep, REDACTED, scrubText, SENSITIVE_FIELDS } from './log-redaction'
