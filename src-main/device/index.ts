/**
 * The device domain's one public door (docs/architecture.md "One public door per domain").
 * Card data and NEO 2 protocol codecs; the serial driver will add its ports here.
 */
export type { CashierAction, CashierAdvice } from './cashier-action'
export { CASHIER_ACTIONS } from './cashier-action'

export { crc16 } from './crc16'

export type { CrcByteOrder, DecodeOptions, Neo2CommandFrame, Neo2Frame, Neo2FrameErrorCode, Neo2FrameKind, Neo2ReceivedFrame, Neo2ResponseFrame } from './neo2-frame'
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
export { decipherPinBlockIso4, decodePinBlock, encipherPinBlockIso4, encodePinBlockIso0, encodePinBlockIso2, encodePinBlockIso3, PinBlockError } from './pin-block'
export { BlockCipherError, tdesDecrypt, tdesEncrypt } from './block-cipher'
export { DukptError, TdesDukptDevice, tdesIpek, tdesKsnCounter, tdesPinKey, tdesTransactionKey, withTdesCounter } from './dukpt-tdes'
export { aesInitialKey, aesIntermediateKey, aesKsnCounter, aesPinKey, nextAesCounter } from './dukpt-aes'
