/**
 * The NEO 2 driver's door: `Neo2CardReader` (the CardReader adapter) over transport → framing →
 * commands (docs/device-protocol.md §7), and the protocol pieces the simulated PIN pad
 * (src-main/training/pinpad) speaks back with: frames, the framer, CRC, serial port shapes.
 */
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
export { describeReaderFailure } from './reader-failure'
export type { ReaderLog } from './reader-log'
export { silentReaderLog } from './reader-log'

// Commands and answers (docs/device-protocol.md §7).
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

// Framing (docs/device-protocol.md §1) and device statuses (§2).
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
