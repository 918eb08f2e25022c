/**
 * Online PIN with 62-01 "Display Message and Get Encrypted PIN" (docs/neo2-protocol.md §6; IDG p.346-350):
 * the reader answers at once with an empty ACK, then, when the customer is done, with
 * `State(1) + KSN (ASCII hex, 20 or 24) + encrypted PIN block (ASCII hex, 16 or 32)`. Only 62-00
 * may be sent in between. The PIN pad holds the keys; the agent only forwards KSN + EPB
 * (docs/card-reader.md §4.5).
 */
import type { EncryptedPin } from '../card-reader'
import { ReaderError } from '../reader-error'

/** 62-01 byte 1 "PAN and Key Type": 01 = DUKPT with the PAN the reader just read (D7.10). */
const DUKPT_INTERNAL_PAN = 0x01

export interface PinRequest {
  minLength: number
  maxLength: number
  /** ASCII line on the PIN pad, 1-20 characters (SmartPIN L100 analogy, S9). */
  prompt: string
}

export const DEFAULT_PIN_REQUEST: PinRequest = { minLength: 4, maxLength: 12, prompt: 'ENTER PIN' }

/** `key type, PAN length 0, max, min, LCD length, LCD text` (D7.10; tentative layout of docs/neo2-protocol.md §6.2). */
export function getEncryptedPinData(request: PinRequest = DEFAULT_PIN_REQUEST): Buffer {
  const { minLength, maxLength } = request
  if (!(Number.isInteger(minLength) && Number.isInteger(maxLength) && minLength >= 4 && minLength <= maxLength && maxLength <= 12)) {
    throw new RangeError(`PIN lengths must satisfy 4 <= min <= max <= 12 (IDG p.348), got ${minLength}-${maxLength}`)
  }
  const prompt = Buffer.from(request.prompt, 'latin1')
  if (prompt.length < 1 || prompt.length > 20 || !/^[\x20-\x7e]+$/.test(request.prompt))
    throw new RangeError('the PIN prompt is 1-20 printable ASCII characters')
  return Buffer.concat([Buffer.from([DUKPT_INTERNAL_PAN, 0x00, maxLength, minLength, prompt.length]), prompt])
}

/** Second-response states, IDG p.346 (the table continues on p.347, which is not public). */
export const PIN_STATES: Readonly<Record<number, string>> = {
  0x00: 'success',
  0x01: 'keypadCancel',
  0x02: 'externalCancel',
  0x03: 'invalidParameters',
  0x04: 'panError',
  0x05: 'pinKeyAbsent',
  0x06: 'pinKeyExhausted',
  0x07: 'displayMessageError',
  0x10: 'financialCardNotAllowed',
}

export type PinAnswer = { kind: 'pin'; pin: EncryptedPin } | { kind: 'cancelled'; by: 'customer' | 'host' }

/** Reads the second response's data (status 00 or 0A). Throws `ReaderError` for any other state or layout. */
export function parsePinAnswer(data: Buffer): PinAnswer {
  const state = data[0]
  if (state === 0x01) return { kind: 'cancelled', by: 'customer' }
  if (state === 0x02) return { kind: 'cancelled', by: 'host' }
  if (state !== 0x00) {
    const name = state === undefined ? 'missing' : (PIN_STATES[state] ?? `0x${state.toString(16).padStart(2, '0')}`)
    throw new ReaderError('pinEntryFailed', `62-01 state ${name}`)
  }
  const text = data.toString('latin1', 1)
  // TDES: 20 + 16 characters; AES: 24 + 32 (IDG p.350). Anything else cannot be split safely.
  const split = text.length === 36 ? 20 : text.length === 56 ? 24 : undefined
  if (split === undefined || !/^[0-9A-Fa-f]+$/.test(text))
    throw new ReaderError('pinEntryFailed', `62-01 answer has ${text.length} characters of KSN and PIN block`)
  const keySerialNumber = text.slice(0, split).toUpperCase()
  const encryptedPin = text.slice(split).toUpperCase()
  // ISO 9564 format 0 goes with TDES DUKPT, format 4 with AES DUKPT (docs/card-reader.md §4.1, §4.4; D7.11).
  const pinEncryptMethod = split === 20 ? 'DUKPT-TDES-ISO0' : 'DUKPT-AES-ISO4'
  return { kind: 'pin', pin: { encryptedPin, keySerialNumber, pinEncryptMethod } }
}
