/**
 * Protocol-2 status byte (response byte 11), docs/neo2-protocol.md §9.1 (IDG p.28, duplicated p.484; the
 * 0x26-0x91 range as named in the iOS SDK's `RETURN_CODE_NEO_*` table, S2 IDTCommon.h; 1E, 2B-2D, 70, A0,
 * A3 and F0 as named in the C SDK's `IDG_P2_STATUS_CODE` table, S11 IDTDef.h). Each status maps to a
 * typed error with a cashier-actionable message; statuses that are not failures (00 OK, 23 Request
 * Online Authorization, 63 OK-and-next-command, ...) are `kind: 'ok'`, only 0E is `kind: 'event'`.
 * 80 and 81 end the command: S2 names them "cannot start contact EMV transaction" and "CTLS/MSR
 * cancelled due to card insertion", S11 "use another card" and "insert or swipe card", outcomes whose
 * next step is another card or the inserted chip; A3 "card inserted" (S11) is read as 81
 * (docs/neo2-protocol.md §9.1, docs/device-protocol.md D2.2, D7.27).
 */
import type { CashierAction, CashierAdvice } from '../cashier-action'

export const NEO2_STATUS_KINDS = ['ok', 'event', 'error'] as const
export type Neo2StatusKind = (typeof NEO2_STATUS_KINDS)[number]

export interface Neo2StatusInfo extends CashierAdvice {
  status: number
  /** camelCase name of the status; `unknownStatus` for bytes neither the IDG nor the SDK tables list. */
  code: string
  /** The IDG's (or the SDK's) own wording, for logs. */
  description: string
  kind: Neo2StatusKind
}

type Advice = Omit<Neo2StatusInfo, 'status' | 'code' | 'description'>

const advice = (kind: Neo2StatusKind, action: CashierAction, retryable: boolean, message: string): Advice => ({
  kind,
  action,
  retryable,
  message,
})

const OK = advice('ok', 'none', false, '')
const LINK = advice('error', 'tryAgain', true, 'Card reader communication error. Try again.')
const REJECTED = advice('error', 'callSupport', false, 'The card reader rejected the request. Call support.')
const BUSY = advice('error', 'waitAndRetry', true, 'The card reader is busy. Wait a moment and try again.')
const KEYS = advice('error', 'callSupport', false, 'Card reader key problem. Call support.')
const FAULT = advice('error', 'callSupport', false, 'Card reader fault. Call support.')
const LANGUAGE = advice('error', 'callSupport', false, 'The card reader display messages are not set up. Call support.')
const SETUP = advice('error', 'callSupport', false, 'The card reader is not set up for this. Call support.')
const CARD_INSERTED = advice('error', 'insertCard', true, 'A card was inserted. Leave it in the reader and start the payment again.')

/** [code, IDG description, advice] by status byte. */
const TABLE: ReadonlyMap<number, readonly [string, string, Advice]> = new Map([
  [0x00, ['ok', 'OK', OK]],
  [0x01, ['incorrectHeaderTag', 'Incorrect Header Tag', LINK]],
  [0x02, ['unknownCommand', 'Unknown Command', REJECTED]],
  [0x03, ['unknownSubCommand', 'Unknown Sub-Command', REJECTED]],
  [0x04, ['crcError', 'CRC Error in Frame', LINK]],
  [0x05, ['incorrectParameter', 'Incorrect Parameter', REJECTED]],
  [0x06, ['parameterNotSupported', 'Parameter Not Supported', REJECTED]],
  [0x07, ['malformattedData', 'Mal-formatted Data', REJECTED]],
  [0x08, ['timeout', 'Timeout', advice('error', 'tryAgain', true, 'The card reader timed out. Try again.')]],
  [0x0a, ['failed', 'Failed/NACK', advice('error', 'tryAgain', true, 'The card reader could not complete the request. Try again.')]],
  [0x0b, ['commandNotAllowed', 'Command not Allowed', BUSY]],
  [0x0c, ['subCommandNotAllowed', 'Sub-Command not Allowed', BUSY]],
  [0x0d, ['bufferOverflow', 'Buffer Overflow (data length too large)', REJECTED]],
  [0x0e, ['userInterfaceEvent', 'User Interface Event', advice('event', 'none', false, '')]],
  [
    0x10,
    [
      'needClearFirmware',
      'Need clear firmware (bootloader)',
      advice('error', 'callSupport', false, 'The card reader needs a firmware update. Call support.'),
    ],
  ],
  [0x11, ['communicationTypeNotSupported', 'Communication type not supported / need encrypted firmware', REJECTED]],
  [0x12, ['secureInterfaceNotFunctional', 'Secure interface not functional', KEYS]],
  [0x13, ['dataNotMod8', 'Data field not mod 8', KEYS]],
  [0x14, ['pad80NotFound', 'Pad 0x80 not found', KEYS]],
  [0x15, ['invalidKeyType', 'Invalid key type', KEYS]],
  [0x16, ['samKeyNotRetrieved', 'Could not retrieve key from SAM', KEYS]],
  [0x17, ['hashCodeProblem', 'Hash code problem', KEYS]],
  [0x18, ['keyNotStored', 'Could not store key', KEYS]],
  [0x19, ['frameTooLarge', 'Frame too large', REJECTED]],
  [0x1a, ['resendInitSecureComm', 'Must resend InitSecureComm', LINK]],
  [0x1b, ['eepromNotInitialised', 'EEPROM not initialised', FAULT]],
  [0x1c, ['apduEncodingProblem', 'Problem encoding APDU', LINK]],
  [
    0x1d,
    [
      'tamperOccurred',
      'Tamper occurred',
      advice('error', 'callSupport', false, 'The card reader reports tampering. Stop using it and call support.'),
    ],
  ],
  [
    0x1e,
    [
      'cardNotRemoved',
      'Card not removed',
      advice('error', 'tryAgain', true, 'A card is still in the reader. Ask the customer to take it out, then try again.'),
    ],
  ],
  [0x20, ['unsupportedIndex', 'Unsupported index (ILM) / SAM transceiver error', REJECTED]],
  [0x21, ['unexpectedSequenceCounter', 'Unexpected sequence counter / SAM length error', REJECTED]],
  [0x22, ['improperBitMap', 'Improper bit map', REJECTED]],
  [0x23, ['requestOnlineAuthorization', 'Request Online Authorization', OK]],
  [0x24, ['rawReadOk', 'ViVOCard3 raw read OK', OK]],
  [0x25, ['messageIndexNotAvailable', 'Message index not available', REJECTED]],
  [0x26, ['versionInformationMismatch', 'Version Information Mismatch (ILM)', LANGUAGE]],
  [0x27, ['messageIndexOutOfOrder', 'Not sending commands in correct message index (ILM)', LANGUAGE]],
  [0x28, ['ilmTimeout', 'Time out or next expected message not received (ILM)', LANGUAGE]],
  [0x29, ['ilmLanguagesNotAvailable', 'ILM languages not available for viewing (ILM)', LANGUAGE]],
  [0x2a, ['otherLanguageNotSupported', 'Other language not supported (ILM)', LANGUAGE]],
  [0x2b, ['deviceNotReady', 'Device not ready', BUSY]],
  [
    0x2c,
    [
      'cancelledByCommand',
      'Operation cancelled by a command',
      advice('error', 'tryAgain', true, 'The card reader stopped the request. Try again.'),
    ],
  ],
  [
    0x2d,
    [
      'cancelledOnKeypad',
      'Operation cancelled by a key press',
      advice(
        'error',
        'tryAgain',
        true,
        'The customer pressed Cancel on the card reader. Start the payment again if they still want to pay.',
      ),
    ],
  ],
  [0x41, ['samUnknownError', 'Unknown error from SAM', KEYS]],
  [0x42, ['samInvalidData', 'Invalid data detected by SAM', KEYS]],
  [0x43, ['samIncompleteData', 'Incomplete data detected by SAM', KEYS]],
  [0x44, ['samReserved', 'Reserved (SAM)', KEYS]],
  [0x45, ['invalidKeyHashAlgorithm', 'Invalid key hash algorithm', KEYS]],
  [0x46, ['invalidKeyEncryptionAlgorithm', 'Invalid key encryption algorithm', KEYS]],
  [0x47, ['invalidModulusLength', 'Invalid modulus length', KEYS]],
  [0x48, ['invalidExponent', 'Invalid exponent', KEYS]],
  [0x49, ['keyAlreadyExists', 'Key already exists', KEYS]],
  [0x4a, ['noSpaceForNewRid', 'No space for new RID', KEYS]],
  [0x4b, ['keyNotFound', 'Key not found', KEYS]],
  [0x4c, ['cryptoNotResponding', 'Crypto not responding', FAULT]],
  [0x4d, ['cryptoCommunicationError', 'Crypto communication error', FAULT]],
  [0x4e, ['keyManagerError', 'Module-specific error for Key Manager', KEYS]],
  [0x4f, ['keySlotsFull', 'All key slots full', KEYS]],
  [0x50, ['autoSwitchOk', 'Auto-switch OK', OK]],
  [0x51, ['autoSwitchFailed', 'Auto-switch failed', FAULT]],
  [0x60, ['dataNotExist', 'Data not exist', REJECTED]],
  [0x61, ['dataFull', 'Data full', FAULT]],
  [0x62, ['writeFlashError', 'Write flash error', FAULT]],
  [0x63, ['okNextCommand', 'OK and have next command', OK]],
  [0x64, ['kernelAbsent', 'Kernel is absent', SETUP]],
  [0x65, ['unexpectedCommandSequence', 'Unexpected command sequence', LINK]],
  [0x66, ['unexpectedIndex', 'Unexpected index', REJECTED]],
  [0x67, ['fileSizeMismatch', 'File size does not match', REJECTED]],
  [
    0x68,
    [
      'plugInChargingCable',
      'Plug in charging cable',
      advice('error', 'waitAndRetry', true, 'The card reader battery is low. Plug in its charging cable, then try again.'),
    ],
  ],
  [0x70, ['antennaError', 'Antenna error', FAULT]],
  [
    0x80,
    [
      'cannotStartContactEmv',
      'Cannot start contact EMV transaction',
      advice('error', 'useAnotherCard', false, 'The chip on this card cannot be used. Use another card.'),
    ],
  ],
  [0x81, ['cancelledByCardInsertion', 'CTLS/MSR cancelled due to card insertion', CARD_INSERTED]],
  [
    0x90,
    [
      'dukptKeyMissing',
      'Account DUKPT key not exist',
      advice('error', 'callSupport', false, 'The PIN pad has no encryption key. Call support.'),
    ],
  ],
  [
    0x91,
    [
      'dukptKeyExhausted',
      'Account DUKPT key KSN exhausted',
      advice('error', 'callSupport', false, 'The PIN pad encryption key is used up. Call support to reload it.'),
    ],
  ],
  [
    0xa0,
    [
      // Consumer Device CVM: the phone or watch wants its owner to confirm on it before it pays.
      'consumerDeviceVerification',
      'CDCVM: verify on the consumer device',
      advice('error', 'presentCardAgain', true, 'Ask the customer to unlock their phone or watch, then tap again.'),
    ],
  ],
  [0xa3, ['cardInserted', 'Card inserted', CARD_INSERTED]],
  [
    0xf0,
    [
      'powerOff',
      'Power off',
      advice('error', 'waitAndRetry', true, 'The card reader is switching off. Wake it or plug it in, then try again.'),
    ],
  ],
])

const hex = (byte: number): string => `0x${byte.toString(16).padStart(2, '0').toUpperCase()}`

/** Everything known about a status byte; bytes missing from the table are `unknownStatus` errors. */
export function describeNeo2Status(status: number): Neo2StatusInfo {
  const entry = TABLE.get(status)
  if (entry) return { status, code: entry[0], description: entry[1], ...entry[2] }
  // In neither the IDG table nor the SDKs': no safe advice, the raw byte goes to the log.
  return { status, code: 'unknownStatus', description: `Status ${hex(status)} not in the IDG or SDK tables`, ...REJECTED }
}

export function isNeo2StatusOk(status: number): boolean {
  return describeNeo2Status(status).kind === 'ok'
}

/** A response whose status byte is not OK for the command that was sent. */
export class Neo2StatusError extends Error {
  override readonly name = 'Neo2StatusError'
  readonly code: string
  readonly action: CashierAction
  readonly cashierMessage: string
  readonly retryable: boolean

  constructor(
    readonly status: number,
    readonly command?: number,
  ) {
    const info = describeNeo2Status(status)
    const where = command === undefined ? '' : ` (command ${hex(command)})`
    super(`NEO 2 status ${hex(status)} ${info.description}${where}`)
    this.code = info.code
    this.action = info.action
    this.cashierMessage = info.message
    this.retryable = info.retryable
  }
}
