/** Durations and times in short cashier words. */

/** 45 s, 12 min, 3 h 05 min, 2 d 4 h */
export function durationText(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000))
  if (seconds < 60) return `${seconds} s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return `${hours} h ${String(minutes % 60).padStart(2, '0')} min`
  return `${Math.floor(hours / 24)} d ${hours % 24} h`
}

export function timeOfDay(ms: number): string {
  const date = new Date(ms)
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`
}

export function dateTimeText(ms: number): string {
  const date = new Date(ms)
  const day = `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`
  return `${day} ${timeOfDay(ms)}`
}

/** The local day of `ms` as YYYY-MM-DD (the terminal's business day). */
export function localDay(ms: number): string {
  return dateTimeText(ms).slice(0, 10)
}
