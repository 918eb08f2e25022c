/**
 * One CSV cell for a file a manager opens in a spreadsheet (the audit export, the rescue's report,
 * the day's export): quoted when it holds a separator, a quote or a line break (RFC 4180 §2), and
 * never read as a formula. A cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return
 * is one a spreadsheet may run (OWASP, "CSV Injection"); it gets a leading apostrophe, which shows
 * the text as typed. Text written by anyone outside the agent (a sale id from a store copy, a bank's words)
 * therefore never becomes a link or a calculation in the merchant's books.
 */
export function csvCell(value: unknown): string {
  const text = value === undefined || value === null ? '' : String(value)
  const neutral = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text
  return /[",\n\r]/.test(neutral) || neutral !== text ? `"${neutral.replaceAll('"', '""')}"` : neutral
}
