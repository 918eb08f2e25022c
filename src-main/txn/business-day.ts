/** The terminal's local calendar day (`YYYY-MM-DD`): the day a sale belongs to, for close of day. */
export function businessDay(at: Date): string {
  const local = new Date(at.getTime() - at.getTimezoneOffset() * 60_000)
  return local.toISOString().slice(0, 10)
}
