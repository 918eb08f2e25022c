/**
 * What may never reach a log: card numbers, tracks, ICC data, PIN blocks, KSNs, keys, tokens
 * (docs/card-reader.md §5, PCI DSS 3.3/3.4). Redaction is by field name at any depth, plus a scrub
 * of strings for anything shaped like a PAN or track data, so a card number pasted into a free-text
 * field or an error message is caught too.
 */

/** Lower-cased field names whose values are replaced wholesale. */
export const SENSITIVE_FIELDS: ReadonlySet<string> = new Set([
  'cardnumber',
  'pan',
  'cvc',
  'cvv',
  'expirydate',
  'expiry',
  'track1',
  'track2',
  'track3',
  'iccarddata',
  'encryptedcardinfo',
  'encryptedpin',
  'pinblock',
  'pin',
  'keyserialnumber',
  'ksn',
  'checkvalue',
  'holdername',
  'signingkey',
  'key',
  'datakey',
  'secret',
  'password',
  'authorization',
  'token',
  'bearer',
  'bdk',
  'ipek',
  'tlv',
  'carddata',
  'sealed',
])

export const REDACTED = '[REDACTED]'

const TRACK_LIKE = /[%;]?B?\d{12,19}[=^D][^\s"']*/g
const DIGIT_RUN = /\d{13,19}/g

function luhnValid(digits: string): boolean {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48
    if (i % 2 === 1) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return sum % 10 === 0
}

/** Masks track-shaped data and Luhn-valid 13–19 digit runs inside free text. */
export function scrubText(text: string): string {
  return text.replace(TRACK_LIKE, REDACTED).replace(DIGIT_RUN, (run) => (luhnValid(run) ? `${run.slice(0, 6)}…${run.slice(-4)}` : run))
}

/** A redacted deep copy, safe to serialise. Cycles and depth are bounded. */
export function redactDeep(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return scrubText(value)
  if (value === null || typeof value !== 'object') return value
  if (depth > 12 || seen.has(value)) return '[…]'
  seen.add(value)
  if (Buffer.isBuffer(value) || ArrayBuffer.isView(value)) return `[${value.byteLength} bytes]`
  if (value instanceof Error) {
    return {
      type: value.name,
      message: scrubText(value.message),
      ...(value.stack ? { stack: scrubText(value.stack) } : {}),
      ...('code' in value ? { code: (value as { code: unknown }).code } : {}),
    }
  }
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, depth + 1, seen))
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    out[key] = SENSITIVE_FIELDS.has(key.toLowerCase()) ? REDACTED : redactDeep(item, depth + 1, seen)
  }
  return out
}
