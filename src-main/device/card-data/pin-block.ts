/**
 * ISO 9564-1 PIN blocks (docs/card-reader.md §4.1):
 * - format 0 (8 bytes, TDES): PIN field 0‖N‖PIN‖F… XOR PAN field 0000‖rightmost 12 PAN digits
 *   excluding the check digit;
 * - format 2 (ICC offline PIN only) and format 3 (as 0, fill nibbles random A-F) are here because the
 *   published psec vectors use them;
 * - format 4 (16 bytes, AES; required with AES DUKPT): PIN field 4‖N‖PIN‖A… to nibble 16 + 8 random
 *   bytes, PAN field M‖PAN‖0… (M = PAN length − 12; a PAN under 12 digits is left-padded to 12 with
 *   M = 0); C = E_K(E_K(PIN field) XOR PAN field).
 * The PIN pad builds these in production; the agent only forwards KSN + EPB (docs/card-reader.md §4.5).
 */
import { randomBytes } from 'node:crypto'
import { aesDecrypt, aesEncrypt, xorBytes } from './block-cipher'

export class PinBlockError extends Error {
  override readonly name = 'PinBlockError'
  constructor(
    readonly code: 'badPin' | 'badPan' | 'badBlock',
    message: string,
  ) {
    super(message)
  }
}

/** Source of random bytes, injectable so tests can fix the fill. */
export type RandomBytes = (size: number) => Buffer

function checkPin(pin: string): void {
  if (!/^\d{4,12}$/.test(pin)) throw new PinBlockError('badPin', 'a PIN is 4 to 12 digits')
}

function checkPan(pan: string): void {
  if (!/^\d{8,19}$/.test(pan)) throw new PinBlockError('badPan', `a PAN is 8 to 19 digits, got ${pan.length} characters`)
}

/** `control‖N‖PIN` filled to 16 nibbles by `fill()`. */
function pinFieldHex(control: string, pin: string, fill: () => string): string {
  let field = control + pin.length.toString(16).toUpperCase() + pin
  while (field.length < 16) field += fill()
  return field
}

/** Format 0/3 PAN field: 0000 + the 12 digits left of the check digit (zero-padded on the left). */
export function panFieldIso0(pan: string): Buffer {
  checkPan(pan)
  return Buffer.from(`0000${pan.slice(0, -1).slice(-12).padStart(12, '0')}`, 'hex')
}

/** Random fill nibbles A-F for format 3, by rejection sampling so each is equally likely. */
function randomFillNibble(random: RandomBytes): () => string {
  return () => {
    for (;;) {
      const byte = random(1)[0] as number
      if (byte < 252) return (10 + (byte % 6)).toString(16).toUpperCase()
    }
  }
}

export function encodePinBlockIso0(pin: string, pan: string): Buffer {
  checkPin(pin)
  return xorBytes(
    Buffer.from(
      pinFieldHex('0', pin, () => 'F'),
      'hex',
    ),
    panFieldIso0(pan),
  )
}

export function encodePinBlockIso2(pin: string): Buffer {
  checkPin(pin)
  return Buffer.from(
    pinFieldHex('2', pin, () => 'F'),
    'hex',
  )
}

export function encodePinBlockIso3(pin: string, pan: string, random: RandomBytes = randomBytes): Buffer {
  checkPin(pin)
  return xorBytes(Buffer.from(pinFieldHex('3', pin, randomFillNibble(random)), 'hex'), panFieldIso0(pan))
}

/** Reads `control‖N‖PIN‖fill` from the first 16 nibbles; `fill` is the allowed fill nibble set. */
function readPinField(hex: string, control: string, fill: RegExp): string {
  const length = parseInt(hex[1] ?? '', 16)
  if (hex[0] !== control || !(length >= 4 && length <= 12))
    throw new PinBlockError('badBlock', `not a format ${control} PIN block (control or length nibble wrong)`)
  const pin = hex.slice(2, 2 + length)
  if (!/^\d+$/.test(pin) || !fill.test(hex.slice(2 + length, 16)))
    throw new PinBlockError('badBlock', `format ${control} PIN block has bad PIN digits or fill`)
  return pin
}

function checkBlock(block: Uint8Array, size: number): void {
  if (block.length !== size) throw new PinBlockError('badBlock', `PIN block must be ${size} bytes, got ${block.length}`)
}

/** Formats 0, 2, 3: the PIN from a clear block (format 2 ignores `pan`). */
export function decodePinBlock(block: Uint8Array, format: 0 | 2 | 3, pan = ''): string {
  checkBlock(block, 8)
  const field = format === 2 ? Buffer.from(block) : xorBytes(block, panFieldIso0(pan))
  return readPinField(field.toString('hex').toUpperCase(), String(format), format === 3 ? /^[A-F]*$/ : /^F*$/)
}

/** Format 4 plain PIN field: 4‖N‖PIN‖A… (8 bytes) + 8 random bytes. */
export function pinFieldIso4(pin: string, random: RandomBytes = randomBytes): Buffer {
  checkPin(pin)
  return Buffer.concat([
    Buffer.from(
      pinFieldHex('4', pin, () => 'A'),
      'hex',
    ),
    random(8).subarray(0, 8),
  ])
}

/** Format 4 plain PAN field: M‖PAN‖0… (16 bytes). */
export function panFieldIso4(pan: string): Buffer {
  checkPan(pan)
  const m = Math.max(0, pan.length - 12)
  return Buffer.from(`${m}${pan.padStart(12, '0')}`.padEnd(32, '0'), 'hex')
}

/** Enciphered format 4 block under an AES key (the DUKPT PIN key). */
export function encipherPinBlockIso4(key: Uint8Array, pin: string, pan: string, random: RandomBytes = randomBytes): Buffer {
  const panField = panFieldIso4(pan)
  return aesEncrypt(key, xorBytes(aesEncrypt(key, pinFieldIso4(pin, random)), panField))
}

export function decipherPinBlockIso4(key: Uint8Array, block: Uint8Array, pan: string): string {
  checkBlock(block, 16)
  const pinField = aesDecrypt(key, xorBytes(aesDecrypt(key, block), panFieldIso4(pan)))
  return readPinField(pinField.toString('hex', 0, 8).toUpperCase(), '4', /^A*$/)
}
