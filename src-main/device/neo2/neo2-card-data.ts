/**
 * CardData from what the reader returned (docs/device-protocol.md §3-§5, §7 D7.3):
 * - chip and contactless: PAN, expiry and `track2` from tag 57 (track 2 equivalent, '=' separator),
 *   `icCardData` from the authorization tags only (buildIcCardData: never 56/57/5A/5F20/5F24/99/9F1F/9F20),
 *   `cardSequenceNum` from 5F34;
 * - swipe: tracks from DFEF17 / DFEF18 (plaintext track 1 / track 2, IDG p.213, p.218).
 * Parse failures become `ReaderError('unreadableCardData')` whose detail never quotes the data; a
 * PAN that fails the Luhn check becomes `ReaderError('invalidCardNumber')` (D4.3).
 */
import type { CardData, EncryptedPin } from '../card-reader'
import { cardBrandOf } from '../card-data/card-brand'
import type { ReaderCapabilities, ReadMethod } from '../card-data/entry-mode'
import { entryModeFields } from '../card-data/entry-mode'
import { isLuhnValid } from '../card-data/luhn'
import { buildIcCardData, cardSequenceNumFrom } from '../card-data/ic-card-data'
import { maskPan } from '../card-data/pan-mask'
import { ReaderError } from '../reader-error'
import { findTlv } from '../card-data/tlv'
import type { Tlv } from '../card-data/tlv'
import { isExpired, parseTrack1, parseTrack2, parseTrack2Equivalent } from '../card-data/track'
import type { Track1Data, Track2Data } from '../card-data/track'

export interface CardContext {
  capabilities: ReaderCapabilities
  now: Date
  /** The acquirer's DE 55 tag list, when not docs/card-reader.md §2.2. */
  icCardDataTags?: readonly string[]
  pin?: EncryptedPin
}

export interface SwipeTracks {
  track1?: Track1Data
  track2?: Track2Data
}

function readable<T>(what: string, read: () => T): T {
  try {
    return read()
  } catch (error) {
    const code = (error as { code?: unknown }).code
    throw new ReaderError('unreadableCardData', `${what}: ${typeof code === 'string' ? code : 'invalid'}`)
  }
}

/** Plaintext tracks of a swipe (D7.3): DFEF17 track 1, DFEF18 track 2, ASCII with or without sentinels. */
export function swipeTracksOf(tlvs: readonly Tlv[]): SwipeTracks {
  const t1 = findTlv(tlvs, 'DFEF17')?.value
  const t2 = findTlv(tlvs, 'DFEF18')?.value
  const tracks: SwipeTracks = {}
  if (t1 && t1.length > 0) tracks.track1 = readable('track 1', () => parseTrack1(t1.toString('latin1')))
  if (t2 && t2.length > 0) tracks.track2 = readable('track 2', () => parseTrack2(t2.toString('latin1')))
  if (!tracks.track1 && !tracks.track2) throw new ReaderError('unreadableCardData', 'no track data in the swipe')
  return tracks
}

export function serviceCodeOf(tracks: SwipeTracks): string {
  return (tracks.track2 ?? tracks.track1)?.serviceCode ?? ''
}

/**
 * A PAN whose check digit is wrong (ISO/IEC 7812-1 Annex B, docs/card-reader.md §5) is no card a
 * host could charge: a misread or a made-up stripe. The terminal refuses it itself, so it is never
 * sent (D4.3). The codecs stay lenient, so test vectors with synthetic PANs still decode.
 */
function assertValidPan(pan: string): void {
  if (!isLuhnValid(pan)) throw new ReaderError('invalidCardNumber', 'the PAN fails the Luhn check')
}

function summaryFields(pan: string, method: ReadMethod, expiry: string | undefined, context: CardContext) {
  return {
    ...entryModeFields(method, context.capabilities, context.pin !== undefined),
    summary: {
      maskedPan: maskPan(pan),
      brand: cardBrandOf(pan),
      method,
      expired: expiry !== undefined && isExpired(expiry, context.now),
      onlinePin: context.pin !== undefined,
    },
  }
}

export function swipeCardData(method: 'swipe' | 'fallbackSwipe', tracks: SwipeTracks, context: CardContext): CardData {
  const main = (tracks.track2 ?? tracks.track1) as Track1Data | Track2Data
  assertValidPan(main.pan)
  const fields = summaryFields(main.pan, method, main.expiry, context)
  const card: CardData = { method, ...fields, pan: main.pan, expiry: main.expiry }
  if (tracks.track1) card.track1 = tracks.track1.text
  if (tracks.track2) card.track2 = tracks.track2.text
  if (context.pin) card.pin = context.pin
  return card
}

/** PAN from 5A: compressed numeric, F-padded (EMV cn). */
function panFrom5A(tlvs: readonly Tlv[]): string | undefined {
  const value = findTlv(tlvs, '5A')?.value
  return value ? value.toString('hex').toUpperCase().replace(/F+$/, '') : undefined
}

export function chipCardData(
  method: 'chip' | 'contactlessChip' | 'contactlessMagstripe',
  tlvs: readonly Tlv[],
  context: CardContext,
): CardData {
  const t57 = findTlv(tlvs, '57')?.value
  const t2Text = findTlv(tlvs, 'DFEF18')?.value
  const track = t57
    ? readable('tag 57', () => parseTrack2Equivalent(t57))
    : t2Text
      ? readable('track 2', () => parseTrack2(t2Text.toString('latin1')))
      : undefined
  const pan = track?.pan ?? panFrom5A(tlvs)
  if (!pan || !/^\d{8,19}$/.test(pan)) throw new ReaderError('unreadableCardData', 'no PAN in the chip data')
  assertValidPan(pan)
  const yymmdd = findTlv(tlvs, '5F24')?.value.toString('hex')
  const expiry = track?.expiry ?? (yymmdd && /^\d{6}$/.test(yymmdd) ? yymmdd.slice(0, 4) : undefined)
  const fields = summaryFields(pan, method, expiry, context)
  const card: CardData = { method, ...fields, pan }
  if (expiry) card.expiry = expiry
  if (track) card.track2 = track.text
  const icCardData = readable('chip data', () => buildIcCardData(tlvs, context.icCardDataTags ? { tags: context.icCardDataTags } : {}))
  if (icCardData) card.icCardData = icCardData
  const sequence = readable('5F34', () => cardSequenceNumFrom(tlvs))
  if (sequence) card.cardSequenceNum = sequence
  if (context.pin) card.pin = context.pin
  const aid = findTlv(tlvs, '4F') ?? findTlv(tlvs, '9F06') ?? findTlv(tlvs, '84')
  if (aid) card.summary.applicationId = aid.value.toString('hex').toUpperCase()
  const label = findTlv(tlvs, '50')?.value.toString('latin1').trim()
  if (label) card.summary.applicationLabel = label
  return card
}
