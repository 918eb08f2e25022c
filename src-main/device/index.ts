/**
 * The device domain's one public door (docs/architecture.md "One public door per domain").
 * The CardReader role and its NEO 2 serial driver; card data and NEO 2 protocol codecs.
 */
export type {
  CardData,
  CardDecision,
  CardReader,
  CardSummary,
  DeviceEvent,
  DeviceStatus,
  EncryptedPin,
  HostAnswerForCard,
  ReadCardRequest,
  ReadCardResult,
} from './card-reader'

// The NEO 2 serial driver: transport → framing → commands (docs/device-protocol.md §7).
export { Neo2CardReader } from './neo2-reader'
export type { Neo2ReaderOptions } from './neo2-reader'
export { createSerialPort, NEO2_SERIAL_SETTINGS, SerialReaderTransport } from './serial-transport'
export type {
  PortFactory,
  PortOpenOptions,
  ReaderTransport,
  SerialPortLike,
  SerialReaderTransportOptions,
  SerialSettings,
  TransportClosed,
} from './serial-transport'
export { discoverReaderPort, IDTECH_USB_VENDOR_ID, listSerialPorts, matchesReaderPort, readerPortResolver } from './port-discovery'
export type { PortInfoLike, PortLister, ReaderPortQuery } from './port-discovery'
export { backoffDelay, DEFAULT_BACKOFF, ReaderLink } from './reader-link'
export type { BackoffOptions, LinkState } from './reader-link'
export { describeReaderFailure, READER_ERROR_CODES, ReaderError } from './reader-error'
export type { ReaderErrorCode, ReaderFailure } from './reader-error'
export type { ReaderLog } from './reader-log'
export { silentReaderLog } from './reader-log'
export { DEFAULT_NEO2_TIMEOUTS } from './neo2-requests'
export type { Neo2Timeouts } from './neo2-requests'
export {
  activateTransactionData,
  amountN12,
  applyHostResponseData,
  BOOT_NOTIFICATION_COMMAND,
  NEO2_COMMANDS,
  Neo2CommandError,
  READER_INTERFACES,
} from './neo2-commands'
export type { ActivateParams, Neo2CommandName, ReaderInterface } from './neo2-commands'
export { DEFAULT_PIN_REQUEST, getEncryptedPinData, parsePinAnswer, PIN_STATES } from './neo2-pin'
export type { PinAnswer, PinRequest } from './neo2-pin'
export {
  captureKindOf,
  cardDecisionOf,
  EMV_RESULT_CODES,
  NEO2_OPAQUE_TAGS,
  parseContactResult,
  parseTransactionData,
  uiEventOf,
} from './neo2-responses'
export type { CaptureKind, ContactResult, TransactionData } from './neo2-responses'
export { cardBrandOf, CARD_BRANDS } from './card-brand'
export type { CardBrand } from './card-brand'
export { currencyNumericCode, CurrencyCodeError } from './currency-numeric'
export type { CashierAction, CashierAdvice } from './cashier-action'
export { CASHIER_ACTIONS } from './cashier-action'

export { crc16 } from './crc16'

export type {
  CrcByteOrder,
  DecodeOptions,
  Neo2CommandFrame,
  Neo2Frame,
  Neo2FrameErrorCode,
  Neo2FrameKind,
  Neo2ReceivedFrame,
  Neo2ResponseFrame,
} from './neo2-frame'
export { decodeNeo2Frame, encodeNeo2Frame, NEO2_HEADER, NEO2_MAX_DATA_LENGTH, Neo2FrameError } from './neo2-frame'
export type { BadFrameReason, FramerTimers, Neo2BadFrame, Neo2FramerOptions } from './neo2-framer'
export { DEFAULT_INTER_BYTE_TIMEOUT_MS, DEFAULT_MAX_DATA_LENGTH, Neo2Framer } from './neo2-framer'
export type { Neo2StatusInfo, Neo2StatusKind } from './neo2-status'
export { describeNeo2Status, isNeo2StatusOk, Neo2StatusError } from './neo2-status'
export type { Neo2ErrorRecord, Neo2TransactionErrorInfo } from './neo2-transaction-error'
export { describeNeo2TransactionError, Neo2TransactionError, parseNeo2ErrorRecord } from './neo2-transaction-error'

export type { Tlv, TlvDecodeOptions, TlvErrorCode, TlvInput, TlvPadding } from './tlv'
export { decodeTlv, encodeTlv, findTlv, TlvError, walkTlv } from './tlv'
export type { TagInfo } from './tlv-dictionary'
export { AUTHORIZATION_TAGS, SAD_TAGS, tagName, TLV_DICTIONARY } from './tlv-dictionary'
export type { IcCardDataOptions } from './ic-card-data'
export { buildIcCardData, cardSequenceNumFrom, IcCardDataError, isForbiddenInIcCardData } from './ic-card-data'

export type { ServiceCodeInfo, Track1Data, Track2Data, TrackData, TrackErrorCode } from './track'
export { isExpired, parseServiceCode, parseTrack1, parseTrack2, parseTrack2Equivalent, TrackError } from './track'
export { isLuhnValid, luhnCheckDigit, LuhnError } from './luhn'
export type { MaskStyle } from './pan-mask'
export { maskPan, PanError, visibleDigits } from './pan-mask'
export type { EntryModeFields, ReaderCapabilities, ReadMethod, SwipeContext, SwipeDecision } from './entry-mode'
export { decideSwipe, entryModeFields, READ_METHODS, readMethodFromNeo2EntryMode, terminalReadability } from './entry-mode'

// PIN blocks and DUKPT: the simulated PIN pad (training/) and tests; production never holds a BDK.
export type { RandomBytes } from './pin-block'
export {
  decipherPinBlockIso4,
  decodePinBlock,
  encipherPinBlockIso4,
  encodePinBlockIso0,
  encodePinBlockIso2,
  encodePinBlockIso3,
  PinBlockError,
} from './pin-block'
export { BlockCipherError, tdesDecrypt, tdesEncrypt } from './block-cipher'
export { DukptError, TdesDukptDevice, tdesIpek, tdesKsnCounter, tdesPinKey, tdesTransactionKey, withTdesCounter } from './dukpt-tdes'
export { aesInitialKey, aesIntermediateKey, aesKsnCounter, aesPinKey, nextAesCounter } from './dukpt-aes'
