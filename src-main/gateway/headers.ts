/**
 * Request header values (docs/gateway.md §2): DateTime in ISO 8601 with an
 * explicit offset, MsgID a UUID of at most 32 characters (the dashes are dropped to fit).
 */
import { randomUUID } from 'node:crypto'

/** `YYYY-MM-DDThh:mm:ss+hh:mm` in the given offset (minutes east of UTC; the local zone by default). */
export function formatDateTime(at: Date, offsetMinutes = -at.getTimezoneOffset()): string {
  const shifted = new Date(at.getTime() + offsetMinutes * 60_000)
  const stamp = shifted.toISOString().slice(0, 19)
  const sign = offsetMinutes < 0 ? '-' : '+'
  const abs = Math.abs(offsetMinutes)
  const hh = String(Math.floor(abs / 60)).padStart(2, '0')
  const mm = String(abs % 60).padStart(2, '0')
  return `${stamp}${sign}${hh}:${mm}`
}

/** 32 hex characters: a version-4 UUID without its dashes. */
export function newMsgId(): string {
  return randomUUID().replaceAll('-', '')
}

export const DATE_TIME_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/
