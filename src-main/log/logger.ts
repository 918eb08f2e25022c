/**
 * pino: JSON lines to a size-rotated file in the data folder (pino-roll), pretty on a terminal.
 * Every record passes through redactDeep first, so no card, PIN or key field is ever written.
 */
import { chmodSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino'
import { redactDeep, scrubText } from './log-redaction'

export interface LoggerSettings {
  level: LoggerOptions['level']
  /** Folder for the rotated `pos-agent.log` files; no file output when absent. */
  logDir?: string | undefined
  maxFileSizeMb?: number
  maxFiles?: number
  /** Pretty output on stderr (a person at a terminal). */
  pretty?: boolean
  /** Direct destination (tests); replaces file and pretty output. */
  destination?: DestinationStream
}

const baseOptions = (level: LoggerOptions['level']): LoggerOptions => ({
  level,
  base: { app: 'pos-agent' },
  // redactDeep runs on every merge object and message before serialisation
  formatters: { log: (object) => redactDeep(object) as Record<string, unknown> },
  hooks: {
    logMethod(args, method) {
      const scrubbed = args.map((arg) => (typeof arg === 'string' ? scrubText(arg) : arg)) as Parameters<typeof method>
      method.apply(this, scrubbed)
    },
  },
  serializers: { err: (error: unknown) => redactDeep(error), error: (error: unknown) => redactDeep(error) },
})

export function createLogger(settings: LoggerSettings): Logger {
  if (settings.destination) return pino(baseOptions(settings.level), settings.destination)
  const targets: pino.TransportTargetOptions[] = []
  if (settings.logDir) {
    // The logs are the owner's only: the folder 0700, each file 0600 (rotated ones too).
    mkdirSync(settings.logDir, { recursive: true, mode: 0o700 })
    if (process.platform !== 'win32') chmodSync(settings.logDir, 0o700)
    targets.push({
      target: 'pino-roll',
      level: settings.level,
      options: {
        file: join(settings.logDir, 'pos-agent.log'),
        size: `${settings.maxFileSizeMb ?? 10}m`,
        limit: { count: settings.maxFiles ?? 5 },
        mkdir: true,
        mode: 0o600,
      },
    })
  }
  if (settings.pretty) targets.push({ target: 'pino-pretty', level: settings.level, options: { destination: 2, colorize: true } })
  if (targets.length === 0) return pino({ ...baseOptions(settings.level), enabled: false })
  return pino(baseOptions(settings.level), pino.transport({ targets }))
}

export type { Logger }
