/**
 * The device domain's one public door (docs/architecture.md "One public door per domain"), kept to
 * what the rest of the agent uses: the CardReader role the engine talks to, and what app/ needs to
 * build the production reader (the NEO 2 on a serial port). The driver's internals are behind
 * `./neo2` and the card data codecs behind `./card-data`; the simulated PIN pad and tests use those
 * doors, and eslint.config.js refuses imports that reach past them.
 */
export type {
  CardCompletion,
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
  ReadExtension,
} from './card-reader'
export { CARD_READ_EXTENSION, MAX_READ_AMOUNT_MINOR } from './card-reader'
export type { ReadMethod } from './card-data'
// The engine brings a held card's icCardData up to date with the card's completion and keeps its
// final cryptogram in the sale's history (docs/card-reader.md §2.5).
export type { CryptogramEvidence } from './card-data'
export { cryptogramEvidence, receiptFacts, withCompletion } from './card-data'
export type { ReceiptFacts } from './card-data'

export { discoverReaderPort, Neo2CardReader, readerPortResolver, SerialReaderTransport } from './neo2'
export type { ReaderLog } from './neo2'
export { READER_ERROR_CODES, ReaderError } from './reader-error'
