/**
 * What a gateway signing key looks like, declared once: the gateway signs with it (src-main/gateway)
 * and the first-run setup form checks it on its field before anything is stored.
 */

/** The spec assigns a 32-character key per store (docs/gateway.md §3); a problem in words, or undefined. */
export function validateSigningKey(key: string): string | undefined {
  if (key.length !== 32) return `the signing key must be exactly 32 characters, got ${key.length}`
  if (!/^[\x21-\x7e]+$/.test(key)) return 'the signing key must be printable ASCII without spaces'
  return undefined
}
