/**
 * The logging the driver needs, shaped like pino's `logger.info(fields, message)` so the app's logger
 * fits as it is. Fields never hold card data: command names, status bytes, lengths, timings
 * (docs/card-reader.md §1.4 "Logging"; docs/neo2-protocol.md §13).
 */
export interface ReaderLog {
  debug(fields: object, message: string): void
  info(fields: object, message: string): void
  warn(fields: object, message: string): void
}

export const silentReaderLog: ReaderLog = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
}

export const hexByte = (byte: number): string => `0x${byte.toString(16).padStart(2, '0').toUpperCase()}`
