/**
 * The ZVT domain's door: the terminal side of ZVT (PA00P015, transport PA00P016), the protocol the
 * cash registers of Germany, Austria and Switzerland speak to their card terminal (docs/zvt.md).
 * Pure codecs (APDU, BMP, TLV, BCD, serial framing) and the transports and commands built on them.
 */
export { apdu, apduLength, ApduReader, controlOf, decodeApdu, encodeApdu, APDU_MAX_DATA, type Apdu } from './zvt-apdu'
export { decodeBcd, decodeBcdNumber, encodeAmount, encodeBcd, encodeMaskedPan } from './zvt-bcd'
export { bmp, BMP_LENGTHS, decodeBmps, encodeBmps, findBmp, tlvBmp, type Bmp } from './zvt-bmp'
export { decodeTlvList, encodeTlvList, findTlv, tlv, TLV, type TlvNode } from './zvt-tlv'
export {
  describeDecodeError,
  resultCodeOf,
  ZVT_FUNCTION_NOT_POSSIBLE,
  ZVT_PROTOCOL_ERROR,
  type Decoded,
  type ZvtDecodeError,
} from './zvt-decode-error'
export { ACK, NAK, frameApdu, SerialFrameReader, unframe, zvtCrc, type SerialEvent } from './zvt-serial-framing'
export { newZvtPassword, ZvtPasswordGuard, type PasswordCheck } from './zvt-password'
export { ZvtSession, ACK_TIMEOUT_MS, type ZvtLink } from './zvt-session'
export { CURRENCY_NUMBERS, RESULT, resultCodeOfSale, statusInformation, type StatusContext } from './zvt-status'
export { printLines, printTextBlock, receiptLines, receiptsOf, RECEIPT_WIDTH, RECEIPT_WIDTH_RANGE, type ReceiptCopy } from './zvt-receipt'
export { ZvtTerminal, type ZvtService, type ZvtTerminalOptions } from './zvt-terminal'
export { startZvtServer, ZVT_DEFAULT_PORT, type ZvtServer, type ZvtServerOptions } from './zvt-server'
export {
  decodeIndividualTotals,
  encodeIndividualTotals,
  individualTotals,
  totalGroupOf,
  TOTAL_GROUPS,
  type GroupTotal,
  type IndividualTotals,
  type TotalGroup,
} from './zvt-totals'
export { startZvtSerial, type ZvtSerial, type ZvtSerialOptions } from './zvt-serial'
