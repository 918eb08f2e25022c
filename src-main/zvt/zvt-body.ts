/**
 * How each message's data is laid out (PA00P015 chapters 2–5): most carry a sequence of BMPs; some put
 * fixed fields first (the password of the administrative commands, Registration's config byte and
 * currency, Abort's result code, Read Card's timeout, an intermediate status byte), and the Completion that answers a
 * Status Enquiry starts with the software version (LLL-var) and the terminal's status byte. Knowing
 * the layout is what lets a reader skip what it does not use and re-encode a message byte for byte.
 */
import { controlOf, type Apdu } from './zvt-apdu'
import { decodeBmps, decodeVarLength, encodeBmps, encodeVarLength, type Bmp } from './zvt-bmp'
import { decoded, failed, type Decoded } from './zvt-decode-error'

export interface Body {
  /** Fixed fields before the BMPs (password, config byte, currency, result or status byte…). */
  prefix: Uint8Array
  /** Status Enquiry's Completion: the software version, LLL-var, before the prefix. */
  version?: Uint8Array
  fields: Bmp[]
}

/** Commands whose data starts with the 3-byte BCD password (PA00P015; packet-zvt.c reads the same). */
export const PASSWORD_COMMANDS: ReadonlySet<number> = new Set([0x0630, 0x0625, 0x0631, 0x0650, 0x0610, 0x0612, 0x0620, 0x0693])

/** Commands whose password may be left out (Status Enquiry; Send Offline Transactions, which only forwards). */
const OPTIONAL_PASSWORD: ReadonlySet<number> = new Set([0x0501, 0x0651])

/** Messages whose data is free text or unknown to this table: kept whole. */
const RAW: ReadonlySet<number> = new Set([0x06d1])

export function decodeBody(message: Apdu): Decoded<Body> {
  const control = controlOf(message)
  const data = message.data
  if (RAW.has(control) || !knownLayout(message)) return decoded({ prefix: data, fields: [] })
  let prefixLength = 0
  let version: Uint8Array | undefined
  let at = 0
  if (control === 0x0600) {
    if (data.length < 4) return failed({ kind: 'truncated', what: 'Registration', need: 4, have: data.length })
    // Password, config byte, then the currency as two raw bytes when present (09 78 = EUR, not BMP 49).
    prefixLength = data.length >= 6 && data[4] !== 0x03 && data[4] !== 0x06 ? 6 : 4
  } else if (PASSWORD_COMMANDS.has(control) || OPTIONAL_PASSWORD.has(control)) {
    if (data.length < 3 && !OPTIONAL_PASSWORD.has(control))
      return failed({ kind: 'truncated', what: 'password', need: 3, have: data.length })
    prefixLength = data.length >= 3 ? 3 : 0
  } else if (control === 0x061e || control === 0x06c0)
    prefixLength = Math.min(1, data.length) // result code; Read Card's timeout
  else if (control === 0x04ff) prefixLength = data.length >= 2 && data[1] !== 0x06 ? 2 : Math.min(1, data.length)
  else if (control === 0x060f && data.length > 0 && data[0]! >> 4 === 0x0f) {
    const length = decodeVarLength(data, 0, 3, 'software version')
    if (!length.ok) return length
    if (3 + length.value + 1 > data.length)
      return failed({ kind: 'truncated', what: 'software version', need: length.value + 1, have: data.length - 3 })
    version = data.slice(3, 3 + length.value)
    at = 3 + length.value
    prefixLength = 1
  }
  const prefix = data.slice(at, at + prefixLength)
  const fields = decodeBmps(data.subarray(at + prefixLength))
  if (!fields.ok) return fields
  return decoded({ prefix, fields: fields.value, ...(version ? { version } : {}) })
}

export function encodeBody(body: Body): Uint8Array {
  const head = body.version ? [...encodeVarLength(body.version.length, 3), ...body.version] : []
  const fields = encodeBmps(body.fields)
  const out = new Uint8Array(head.length + body.prefix.length + fields.length)
  out.set(head, 0)
  out.set(body.prefix, head.length)
  out.set(fields, head.length + body.prefix.length)
  return out
}

/** Class bytes whose messages PA00P015 lays out as above; others (manufacturer extensions) are kept whole. */
function knownLayout(message: Apdu): boolean {
  return message.cls === 0x04 || message.cls === 0x05 || message.cls === 0x06 || message.cls === 0x80 || message.cls === 0x84
}

/** Status Enquiry's software version, LLL-var, as its Completion starts (at most 999 bytes of ASCII). */
export function encodeVersion(text: string): number[] {
  const bytes = [...new TextEncoder().encode(text)].slice(0, 999)
  return [...encodeVarLength(bytes.length, 3), ...bytes]
}
