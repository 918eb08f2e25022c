/**
 * How the card was read, as the gateway's offline payment fields want it (docs/gateway.md §4,
 * paymentMethod.card: posEntryMode, termReadability, pinFlag), and the "chip card swiped" rule.
 * The values are decisions recorded in docs/device-protocol.md §5 with their sources:
 * - posEntryMode: ISO 8583:1987 DE 22 style, 3 digits = PAN entry mode (2) + PIN entry capability (1).
 *   The PAN entry modes are the NEO 2's own 9F39 values (docs/neo2-protocol.md §3.4: 05 contact EMV,
 *   07 CTLS EMV, 91 CTLS MSD, 90 swipe, 80 contact fallback to MSR) plus 01 manual entry [K].
 * - termReadability: what the terminal can read (Visa F60.2 style [K]): 5 chip (+ stripe),
 *   8 contactless only, 2 stripe only, 0 unknown.
 * - pinFlag: an online PIN block accompanies the request.
 */
import { parseServiceCode } from './track'

export const READ_METHODS = ['chip', 'contactlessChip', 'contactlessMagstripe', 'swipe', 'fallbackSwipe', 'keyed'] as const
export type ReadMethod = (typeof READ_METHODS)[number]

const PAN_ENTRY_MODE: Readonly<Record<ReadMethod, string>> = {
  chip: '05',
  contactlessChip: '07',
  contactlessMagstripe: '91',
  swipe: '90',
  fallbackSwipe: '80',
  keyed: '01',
}

/** The NEO 2's tag 9F39 byte (docs/neo2-protocol.md §3.4) as a read method; undefined for other values. */
export function readMethodFromNeo2EntryMode(value: number): ReadMethod | undefined {
  const byCode: Readonly<Record<number, ReadMethod>> = {
    0x05: 'chip',
    0x07: 'contactlessChip',
    0x91: 'contactlessMagstripe',
    0x90: 'swipe',
    0x80: 'fallbackSwipe',
  }
  return byCode[value]
}

export interface ReaderCapabilities {
  contact: boolean
  contactless: boolean
  magstripe: boolean
  /** The reader has a PIN pad that can capture online PIN (62-01, docs/neo2-protocol.md §6). */
  pinPad: boolean
}

export interface EntryModeFields {
  posEntryMode: string
  termReadability: string
  pinFlag: boolean
}

export function terminalReadability(reader: ReaderCapabilities): string {
  if (reader.contact) return '5'
  if (reader.contactless) return '8'
  if (reader.magstripe) return '2'
  return '0'
}

export function entryModeFields(method: ReadMethod, reader: ReaderCapabilities, onlinePinEntered: boolean): EntryModeFields {
  return {
    posEntryMode: PAN_ENTRY_MODE[method] + (reader.pinPad ? '1' : '2'),
    termReadability: terminalReadability(reader),
    pinFlag: onlinePinEntered,
  }
}

export interface SwipeContext {
  /** Service code from the swiped track. */
  serviceCode: string
  /** The terminal has a contact chip reader. */
  terminalReadsChip: boolean
  /** A chip read of this card already failed in this sale. */
  chipReadFailed: boolean
  /** Configured policy: magstripe fallback is allowed after a failed chip read. */
  fallbackAllowed: boolean
}

export type SwipeDecision =
  | { action: 'accept'; method: 'swipe' | 'fallbackSwipe' }
  | { action: 'insertChip'; reason: 'chipCard' | 'fallbackNotAllowed' }
  | { action: 'reject'; reason: 'badServiceCode' }

/**
 * A swiped chip card (service code 2xx/6xx, docs/card-reader.md §3) gets "insert chip", unless its chip
 * already failed and fallback is allowed, in which case the swipe is a fallback (DE 22 "80").
 * A terminal without a chip reader takes the swipe as it is.
 */
export function decideSwipe(context: SwipeContext): SwipeDecision {
  const service = parseServiceCode(context.serviceCode)
  if (!service) return { action: 'reject', reason: 'badServiceCode' }
  if (!service.chipCapable || !context.terminalReadsChip) return { action: 'accept', method: 'swipe' }
  if (!context.chipReadFailed) return { action: 'insertChip', reason: 'chipCard' }
  return context.fallbackAllowed ? { action: 'accept', method: 'fallbackSwipe' } : { action: 'insertChip', reason: 'fallbackNotAllowed' }
}
