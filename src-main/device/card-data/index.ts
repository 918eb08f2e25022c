/**
 * The card data codecs' door: pure functions over what a card holds, with no reader protocol and no
 * I/O (eslint.config.js keeps it so). EMV BER-TLV and DE 55, ISO 7813 tracks, Luhn, PAN masking,
 * brands, entry modes, ISO 4217 numeric codes (docs/device-protocol.md §3-§6), and the ISO 9564 PIN
 * blocks and DUKPT that only the simulated PIN pad and tests use: production never holds a BDK.
 */
export type { Tlv, TlvDecodeOptions, TlvErrorCode, TlvInput, TlvPadding } from './tlv'
export { decodeTlv, encodeTlv, findTlv, TlvError, walkTlv } from './tlv'
export type { TagInfo } from './tlv-dictionary'
export { AUTHORIZATION_TAGS, COMPLETION_TAGS, SAD_TAGS, tagName, TLV_DICTIONARY } from './tlv-dictionary'
export type { CryptogramEvidence, IcCardDataOptions } from './ic-card-data'
export {
  buildIcCardData,
  cardSequenceNumFrom,
  cryptogramEvidence,
  IcCardDataError,
  isForbiddenInIcCardData,
  withCompletion,
} from './ic-card-data'

export type { ServiceCodeInfo, Track1Data, Track2Data, TrackData, TrackErrorCode } from './track'
export { isExpired, parseServiceCode, parseTrack1, parseTrack2, parseTrack2Equivalent, TrackError } from './track'
export { isLuhnValid, luhnCheckDigit, LuhnError } from './luhn'
export type { MaskStyle } from './pan-mask'
export { maskPan, PanError, visibleDigits } from './pan-mask'
export { cardBrandOf, CARD_BRANDS } from './card-brand'
export type { CardBrand } from './card-brand'
export type { EntryModeFields, ReaderCapabilities, ReadMethod, SwipeContext, SwipeDecision } from './entry-mode'
export { decideSwipe, entryModeFields, READ_METHODS, readMethodFromNeo2EntryMode, terminalReadability } from './entry-mode'
export { currencyNumericCode, CurrencyCodeError } from './currency-numeric'
export type { ReceiptFacts } from './receipt-facts'
export { receiptFacts } from './receipt-facts'

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
export type { AesKeyType } from './dukpt-aes'
export { AES_KEY_TYPES, aesInitialKey, aesIntermediateKey, aesKeyTypeOf, aesKsnCounter, aesPinKey, nextAesCounter } from './dukpt-aes'
