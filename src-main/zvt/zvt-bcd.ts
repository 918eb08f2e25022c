/**
 * Packed BCD as ZVT carries numbers (PA00P015 §12): two decimal digits a byte, high nibble first.
 * An amount (BMP 04) is 6 bytes, 12 digits of minor units (3.80 EUR = `00 00 00 00 03 80`); a PAN
 * (BMP 22) masks digits with `E` and pads an odd length with `F`.
 */
import { decoded, failed, type Decoded } from './zvt-decode-error'

/** `digits` (decimal characters) as `bytes` bytes of packed BCD, zeros on the left. */
export function encodeBcd(digits: string | number, bytes: number): Uint8Array {
  const text = typeof digits === 'number' ? String(digits) : digits
  if (!/^\d*$/.test(text) || text.length > bytes * 2) throw new RangeError(`${text} does not fit ${bytes} BCD bytes`)
  const padded = text.padStart(bytes * 2, '0')
  const out = new Uint8Array(bytes)
  for (let i = 0; i < bytes; i++) out[i] = (Number(padded[2 * i]) << 4) | Number(padded[2 * i + 1])
  return out
}

/** The digits of a packed-BCD field; an error when a nibble is not a digit. */
export function decodeBcd(bytes: Uint8Array, what: string): Decoded<string> {
  let out = ''
  for (const byte of bytes) {
    const high = byte >> 4
    const low = byte & 0x0f
    if (high > 9 || low > 9) return failed({ kind: 'badBcd', what })
    out += `${high}${low}`
  }
  return decoded(out)
}

/** A BCD number as an integer (amounts, receipt and trace numbers). */
export function decodeBcdNumber(bytes: Uint8Array, what: string): Decoded<number> {
  const digits = decodeBcd(bytes, what)
  return digits.ok ? decoded(Number(digits.value)) : digits
}

/** BMP 04: minor units as 6 BCD bytes (at most 999 999 999 999). */
export const encodeAmount = (minor: number): Uint8Array => encodeBcd(minor, 6)

/** A masked PAN (`123456******1234`) as BMP 22's nibbles: digits, `E` for each masked one, `F` padding. */
export function encodeMaskedPan(masked: string): Uint8Array {
  const nibbles = [...masked.replace(/[^0-9*Xx•]/g, '')].map((c) => (/\d/.test(c) ? Number(c) : 0x0e))
  if (nibbles.length % 2 === 1) nibbles.push(0x0f)
  const out = new Uint8Array(nibbles.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = (nibbles[2 * i]! << 4) | nibbles[2 * i + 1]!
  return out
}
