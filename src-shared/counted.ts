/**
 * A count in plain words, "1 sale" or "2 sales": a person reads one number of one thing, never
 * "sale(s)". `many` for a noun whose plural is not the noun with an s.
 */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`
}

/** The verb that goes with a count: "1 sale needs", "2 sales need". */
export function agreeing(n: number, one: string, many: string): string {
  return n === 1 ? one : many
}
