/**
 * The NEO 2 commands the agent sends, as data fields (docs/neo2-protocol.md §1-§6; layout decisions in
 * docs/device-protocol.md §7). Pure: no I/O, so each builder is pinned by golden frames in tests.
 */
import { MAX_READ_AMOUNT_MINOR, type HostAnswerForCard } from '../card-reader'
import { currencyNumericCode } from '../card-data/currency-numeric'
import { minorUnitDigits } from '../../../src-shared/money'
import { decodeTlv, encodeTlv } from '../card-data/tlv'
import type { TlvInput } from '../card-data/tlv'

/** Command and sub-command bytes (docs/neo2-protocol.md §1, §2, §4, §5, §6). */
export const NEO2_COMMANDS = {
  ping: { command: 0x18, subCommand: 0x01 },
  activateTransaction: { command: 0x02, subCommand: 0x40 },
  cancelTransaction: { command: 0x05, subCommand: 0x01 },
  contactAuthenticate: { command: 0x60, subCommand: 0x11 },
  contactApplyHostResponse: { command: 0x60, subCommand: 0x12 },
  getEncryptedPin: { command: 0x62, subCommand: 0x01 },
  cancelPin: { command: 0x62, subCommand: 0x00 },
} as const
export type Neo2CommandName = keyof typeof NEO2_COMMANDS

/** 14-01 boot notification: sent by the reader on its own at the end of boot (docs/neo2-protocol.md §8). */
export const BOOT_NOTIFICATION_COMMAND = 0x14

/** DFEF37 interface select bits (docs/neo2-protocol.md §2.2, IDG p.209). */
export const READER_INTERFACES = { magstripe: 0x01, contactless: 0x02, contact: 0x04 } as const
export type ReaderInterface = keyof typeof READER_INTERFACES

/** 9C transaction type, ISO 8583 processing code digits 1-2 (docs/neo2-protocol.md §2.2). D7.4: a void read uses 20 (refund). */
const TRANSACTION_TYPE = { purchase: 0x00, void: 0x20 } as const

export class Neo2CommandError extends Error {
  override readonly name = 'Neo2CommandError'
  constructor(
    readonly code: 'badAmount' | 'badTimeout' | 'badHostAnswer',
    message: string,
  ) {
    super(message)
  }
}

/** n12 BCD (6 bytes), as 9F02/9F03 carry amounts (docs/card-reader.md §2.2). */
export function amountN12(minor: number): Buffer {
  if (!Number.isSafeInteger(minor) || minor < 0 || minor > MAX_READ_AMOUNT_MINOR)
    throw new Neo2CommandError('badAmount', `amount must be 0 to ${MAX_READ_AMOUNT_MINOR} minor units, got ${minor}`)
  return Buffer.from(String(minor).padStart(12, '0'), 'hex')
}

/** n3 in 2 BCD bytes, e.g. 978 → 09 78. */
function numericN3(value: number): Buffer {
  return Buffer.from(String(value).padStart(4, '0'), 'hex')
}

export interface ActivateParams {
  /** Seconds to wait for a card: the 1-byte timeout field (1-255). */
  timeoutSeconds: number
  amountMinor: number
  currency: string
  purpose: 'purchase' | 'void'
  interfaces: readonly ReaderInterface[]
  /** DFEF3C byte 1: let the reader fall back to the stripe after a failed chip read. */
  fallback: boolean
  /** DFEF3C bytes 2-3: how long the reader waits for the next command of the contact flow (60-11/60-12). */
  nextCommandTimeoutSeconds: number
}

export function interfaceBits(interfaces: readonly ReaderInterface[]): number {
  return interfaces.reduce((bits, name) => bits | READER_INTERFACES[name], 0)
}

/**
 * 02-40 data: timeout byte + TLVs (IDG p.210). 9A/9F21 are not sent: deprecated, "do not attempt to
 * use this tag in SRED devices"; the reader's clock is used (docs/neo2-protocol.md §2.2).
 */
export function activateTransactionData(params: ActivateParams): Buffer {
  if (!Number.isInteger(params.timeoutSeconds) || params.timeoutSeconds < 1 || params.timeoutSeconds > 255) {
    throw new Neo2CommandError('badTimeout', `the 02-40 timeout is 1 to 255 seconds, got ${params.timeoutSeconds}`)
  }
  const next = Math.max(0, Math.min(0xffff, Math.round(params.nextCommandTimeoutSeconds)))
  const tlvs: TlvInput[] = [
    { tag: '9F02', value: amountN12(params.amountMinor) },
    { tag: '9F03', value: amountN12(0) },
    { tag: '9C', value: Buffer.from([TRANSACTION_TYPE[params.purpose]]) },
    { tag: '5F2A', value: numericN3(currencyNumericCode(params.currency)) },
    { tag: 'DFEF37', value: Buffer.from([interfaceBits(params.interfaces)]) },
    { tag: '5F36', value: Buffer.from([minorUnitDigits(params.currency)]) },
    { tag: 'DFEF3C', value: Buffer.from([params.fallback ? 0x01 : 0x00, next >> 8, next & 0xff]) },
  ]
  return Buffer.concat([Buffer.from([params.timeoutSeconds]), encodeTlv(tlvs)])
}

/** 60-11 data: no TLVs; the reader continues the transaction 02-40 started (D7.6). */
export function contactAuthenticateData(): Buffer {
  return Buffer.alloc(0)
}

/**
 * 60-12 data: ComFlag (01 the host answered, 00 unable to go online) + 8A + 91 + 71/72 (D7.8;
 * SDK emv_completeOnlineEMVTransaction [S2], MiniSmart II analogy, docs/neo2-protocol.md §4).
 * `issuerScripts` are whole 71/72 templates in hex, passed through unchanged.
 */
export function applyHostResponseData(answer: HostAnswerForCard): Buffer {
  if (!/^[\x20-\x7e]{2}$/.test(answer.authorizationResponseCode)) {
    throw new Neo2CommandError('badHostAnswer', 'the authorization response code (8A) is two printable characters')
  }
  const tlvs: TlvInput[] = [{ tag: '8A', value: Buffer.from(answer.authorizationResponseCode, 'latin1') }]
  if (answer.issuerAuthenticationData) {
    const value = hexBytes(answer.issuerAuthenticationData, 'issuer authentication data (91)')
    if (value.length < 8 || value.length > 16) throw new Neo2CommandError('badHostAnswer', `91 is 8 to 16 bytes, got ${value.length}`)
    tlvs.push({ tag: '91', value })
  }
  const scripts = (answer.issuerScripts ?? []).map((script) => {
    const bytes = hexBytes(script, 'issuer script')
    let decoded: ReturnType<typeof decodeTlv> = []
    try {
      decoded = decodeTlv(bytes, { padding: 'zeroOnly' })
    } catch {
      // not BER-TLV at all: reported below like any other malformed script
    }
    if (decoded.length !== 1 || (decoded[0]?.tag !== '71' && decoded[0]?.tag !== '72')) {
      throw new Neo2CommandError('badHostAnswer', 'an issuer script is one 71 or 72 template')
    }
    return bytes
  })
  const comFlag = Buffer.from([answer.result === 'unableToGoOnline' ? 0x00 : 0x01])
  return Buffer.concat([comFlag, encodeTlv(tlvs), ...scripts])
}

function hexBytes(text: string, what: string): Buffer {
  if (!/^([0-9A-Fa-f]{2})+$/.test(text)) throw new Neo2CommandError('badHostAnswer', `${what} must be hex`)
  return Buffer.from(text, 'hex')
}

/** 05-01 data: none = plain cancel (IDG p.242). Mode 01 (reset without display) is not used. */
export function cancelTransactionData(): Buffer {
  return Buffer.alloc(0)
}
