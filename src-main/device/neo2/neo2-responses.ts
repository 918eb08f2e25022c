/**
 * Reading the data of NEO 2 answers (layouts decided in docs/device-protocol.md §7):
 * - 02-40 (status 00/23/0A): Attribution(1) + TLVs (D7.3; docs/neo2-protocol.md §3.2-§3.4);
 * - 60-11/60-12: Result code(2, big-endian) + Attribution(1) + TLVs (D7.7; IDG p.185 "response code
 *   is 00 04", MiniSmart II analogy in docs/neo2-protocol.md §4);
 * - status 0E: one UI event byte (D7.12).
 * Reader output is decoded with `padding: 'zeroOnly'`: its private tags start with FF (D3.3).
 */
import type { CardDecision, DeviceEvent } from '../card-reader'
import type { ReadMethod } from '../card-data/entry-mode'
import { readMethodFromNeo2EntryMode } from '../card-data/entry-mode'
import { ReaderError } from '../reader-error'
import { decodeTlv, findTlv } from '../card-data/tlv'
import type { Tlv } from '../card-data/tlv'

export interface TransactionData {
  attribution: number
  tlvs: Tlv[]
}

export interface ContactResult extends TransactionData {
  /** SDK EMV_RESULT_CODE_V2 (docs/neo2-protocol.md §4). */
  resultCode: number
}

/** The 2-byte contact result codes the driver acts on (docs/neo2-protocol.md §4, S2 IDTEMVData.h). */
export const EMV_RESULT_CODES = {
  approvedOffline: 0x0000,
  declinedOffline: 0x0001,
  approved: 0x0002,
  declined: 0x0003,
  goOnline: 0x0004,
  callYourBank: 0x0005,
  notAccepted: 0x0006,
  useMagstripe: 0x0007,
  timeout: 0x0008,
} as const

/**
 * ID TECH private tags that look constructed (first byte FF) but hold raw bytes: the error record and
 * the FFEE13/FFEE14 aliases of the track 1/2 tags (IDG p.213; D3.9, D7.3).
 */
export const NEO2_OPAQUE_TAGS = ['FFEE1F', 'FFEE13', 'FFEE14', 'FFEE12'] as const

function decode(bytes: Buffer): Tlv[] {
  try {
    return decodeTlv(bytes, { padding: 'zeroOnly', opaqueTags: NEO2_OPAQUE_TAGS })
  } catch (error) {
    throw new ReaderError('unreadableCardData', `TLV data: ${error instanceof Error ? error.message : String(error)}`)
  }
}

/** Attribution + TLVs; an empty field reads as attribution 0 and no TLVs. */
export function parseTransactionData(data: Buffer): TransactionData {
  if (data.length === 0) return { attribution: 0, tlvs: [] }
  return { attribution: data[0] ?? 0, tlvs: decode(data.subarray(1)) }
}

export function parseContactResult(data: Buffer): ContactResult {
  if (data.length < 3) throw new ReaderError('unreadableCardData', `contact result needs 3 bytes, got ${data.length}`)
  return { resultCode: data.readUInt16BE(0), attribution: data[2] ?? 0, tlvs: decode(data.subarray(3)) }
}

export const CAPTURE_KINDS = ['contact', 'contactlessEmv', 'contactlessMsd', 'magstripe', 'unknown'] as const
export type CaptureKind = (typeof CAPTURE_KINDS)[number]

/** Attribution bits 4/3/0: 000 contact, 001 CTLS EMV, 101 CTLS MSD, 01x MSR (IDG p.232, p.236). */
export function captureKindOf(attribution: number): CaptureKind {
  const bits = (((attribution >> 4) & 1) << 2) | (((attribution >> 3) & 1) << 1) | (attribution & 1)
  if (bits === 0b000) return 'contact'
  if (bits === 0b001) return 'contactlessEmv'
  if (bits === 0b101) return 'contactlessMsd'
  if (bits === 0b010 || bits === 0b011) return 'magstripe'
  return 'unknown'
}

/** Attribution bits 7/6 (encryption status) or a DFEE12 data KSN: the card data is encrypted (D7.5). */
export function isEncrypted(data: TransactionData): boolean {
  return (data.attribution & 0xc0) !== 0 || findTlv(data.tlvs, 'DFEE12') !== undefined || findTlv(data.tlvs, 'FFEE12') !== undefined
}

const BY_CAPTURE: Readonly<Record<CaptureKind, ReadMethod | undefined>> = {
  contact: 'chip',
  contactlessEmv: 'contactlessChip',
  contactlessMsd: 'contactlessMagstripe',
  magstripe: 'swipe',
  unknown: undefined,
}

/** 9F39 when the reader sent it (docs/neo2-protocol.md §3.4), else the attribution's capture type. */
export function readMethodOf(data: TransactionData): ReadMethod | undefined {
  const entryMode = findTlv(data.tlvs, '9F39')?.value[0]
  if (entryMode !== undefined) {
    const method = readMethodFromNeo2EntryMode(entryMode)
    if (method) return method
  }
  // Attribution 00 is also what an empty data field reads as: without 9F39 it proves nothing.
  return data.attribution === 0 && data.tlvs.length === 0 ? undefined : BY_CAPTURE[captureKindOf(data.attribution)]
}

/**
 * The card's final word after 60-12: 9F27 (CID: 40 TC, 00 AAC) when present, else the result code
 * (0000/0002 approved, 0001/0003 declined). Anything else is not an approval (D7.9).
 */
export function cardDecisionOf(result: ContactResult): CardDecision {
  const cid = findTlv(result.tlvs, '9F27')?.value[0]
  if (cid !== undefined) return (cid & 0xc0) === 0x40 ? 'approved' : 'declined'
  const { approvedOffline, approved } = EMV_RESULT_CODES
  return result.resultCode === approved || result.resultCode === approvedOffline ? 'approved' : 'declined'
}

/**
 * 9F34 CVM Results byte 1, bits 6-1 = 000010 "enciphered PIN verified online" (EMV Book 3 C3 [K]):
 * the card asked for online PIN, which the PIN pad then takes with 62-01 (D7.10).
 */
export function cardWantsOnlinePin(tlvs: readonly Tlv[]): boolean {
  const cvm = findTlv(tlvs, '9F34')?.value[0]
  return cvm !== undefined && (cvm & 0x3f) === 0x02
}

/** UI event byte of a status-0E frame → the cashier prompt it stands for (D7.12); undefined = log only. */
export function uiEventOf(data: Buffer): DeviceEvent | undefined {
  switch (data[0]) {
    case 0x01:
      return { type: 'processing' }
    case 0x02:
      return { type: 'waitingForCard', prompt: 'Present the card again' }
    case 0x03:
      return { type: 'removeCard' }
    case 0x04:
      return { type: 'insertChip', reason: 'readerAskedForChip' }
    default:
      return undefined
  }
}
