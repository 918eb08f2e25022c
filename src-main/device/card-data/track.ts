/**
 * ISO/IEC 7813 magnetic-stripe tracks (docs/card-reader.md §3):
 *   Track 1  %B PAN ^ NAME ^ YYMM SVC discretionary ?    (sentinels optional here)
 *   Track 2  ;  PAN =        YYMM SVC discretionary ?
 *   Tag 57   packed BCD, separator nibble D, F-padded, no sentinels (track 2 equivalent data)
 * Readers verify and strip the LRC; anything after the end sentinel (an LRC, or the ';' of a following
 * track as in the CyberSource sample) is ignored. The name and discretionary fields are not checked
 * against the Track 1 character set, because published samples carry TABs there and the agent never
 * interprets them (docs/device-protocol.md §4).
 */

export const TRACK_ERROR_CODES = ['badFormat', 'badPan', 'badExpiry', 'badServiceCode', 'tooLong'] as const
export type TrackErrorCode = (typeof TRACK_ERROR_CODES)[number]

/** Messages never quote the track: it is SAD (docs/card-reader.md §5). */
export class TrackError extends Error {
  override readonly name = 'TrackError'
  constructor(
    readonly code: TrackErrorCode,
    message: string,
  ) {
    super(message)
  }
}

export interface TrackData {
  pan: string
  /** YYMM */
  expiry: string
  serviceCode: string
  discretionary: string
  /** The track without sentinels and LRC, as the host's track1/track2 fields carry it. */
  text: string
}

export interface Track1Data extends TrackData {
  track: 1
  /** As encoded, e.g. "TEST CARD/VIVOTECH"; trailing spaces kept. */
  name: string
}

export interface Track2Data extends TrackData {
  track: 2
}

/** Data characters between the sentinels: 79 and 40 minus start, end and LRC (docs/card-reader.md §3). */
const TRACK1_MAX = 76
const TRACK2_MAX = 37

function between(raw: string, start: string, max: number): string {
  const from = raw.startsWith(start) ? 1 : 0
  const end = raw.indexOf('?', from)
  const text = raw.slice(from, end < 0 ? raw.length : end)
  if (text.length > max) throw new TrackError('tooLong', `track data is ${text.length} characters, at most ${max} fit`)
  return text
}

function tail(text: string, at: number): Pick<TrackData, 'expiry' | 'serviceCode' | 'discretionary'> {
  const expiry = text.slice(at, at + 4)
  const serviceCode = text.slice(at + 4, at + 7)
  if (!/^\d{4}$/.test(expiry) || !isValidMonth(expiry)) throw new TrackError('badExpiry', 'expiry is not YYMM')
  if (!/^\d{3}$/.test(serviceCode)) throw new TrackError('badServiceCode', 'service code is not 3 digits')
  return { expiry, serviceCode, discretionary: text.slice(at + 7) }
}

function checkPan(pan: string): void {
  if (!/^\d{8,19}$/.test(pan)) throw new TrackError('badPan', `PAN field must be 8 to 19 digits, got ${pan.length} characters`)
}

export function parseTrack1(raw: string): Track1Data {
  const text = between(raw, '%', TRACK1_MAX)
  if (text[0] !== 'B') throw new TrackError('badFormat', 'track 1 must start with format code B')
  const sep1 = text.indexOf('^')
  const sep2 = sep1 < 0 ? -1 : text.indexOf('^', sep1 + 1)
  if (sep2 < 0) throw new TrackError('badFormat', 'track 1 needs two ^ separators')
  const pan = text.slice(1, sep1)
  checkPan(pan)
  const name = text.slice(sep1 + 1, sep2)
  if (name.length > 26) throw new TrackError('badFormat', 'track 1 name is longer than 26 characters')
  return { track: 1, pan, name, ...tail(text, sep2 + 1), text }
}

export function parseTrack2(raw: string): Track2Data {
  const text = between(raw, ';', TRACK2_MAX)
  const sep = text.indexOf('=')
  if (sep < 0) throw new TrackError('badFormat', 'track 2 needs a = separator')
  const pan = text.slice(0, sep)
  checkPan(pan)
  const rest = tail(text, sep + 1)
  if (!/^\d*$/.test(rest.discretionary)) throw new TrackError('badFormat', 'track 2 discretionary data must be digits')
  return { track: 2, pan, ...rest, text }
}

/** Track 2 equivalent data (tag 57): hex nibbles, 'D' separator, trailing 'F' pad (docs/card-reader.md §3). */
export function parseTrack2Equivalent(value: Uint8Array): Track2Data {
  const nibbles = Buffer.from(value).toString('hex').toUpperCase()
  if (!/^\d+D\d*F?$/.test(nibbles)) throw new TrackError('badFormat', 'tag 57 must be digits, one D separator and at most one F pad')
  return parseTrack2(nibbles.replace('D', '=').replace(/F$/, ''))
}

function isValidMonth(yymm: string): boolean {
  const month = Number(yymm.slice(2))
  return month >= 1 && month <= 12
}

/**
 * True once the card's last valid month is over. A card is valid through the END of its expiry month,
 * in the merchant's local calendar (`now` read with local-time getters). YY means 20YY: test cards
 * use far expiries such as 4912 or 9912, and no card in use expired in the 1900s
 * (docs/device-protocol.md §4; revisit before 2090).
 */
export function isExpired(expiry: string, now: Date): boolean {
  if (!/^\d{4}$/.test(expiry) || !isValidMonth(expiry)) throw new TrackError('badExpiry', 'expiry is not YYMM')
  const year = 2000 + Number(expiry.slice(0, 2))
  const month = Number(expiry.slice(2))
  return now.getFullYear() * 12 + now.getMonth() + 1 > year * 12 + month
}

// Service code (ISO/IEC 7813; docs/card-reader.md §3 "Service code", tagged [K] there: check against the
// standard). Digit 1 = interchange and technology (2 and 6 = chip card, so a swipe is answered with
// "insert chip"), digit 2 = authorization processing, digit 3 = allowed services and PIN requirement.
export interface ServiceCodeInfo {
  code: string
  interchange: 'international' | 'national' | 'private' | 'test' | 'reserved'
  /** Digit 1 is 2 or 6: the card has a chip that must be used when the terminal can read it. */
  chipCapable: boolean
  authorization: 'normal' | 'byIssuer' | 'byIssuerUnlessBilateral' | 'reserved'
  services: 'noRestrictions' | 'goodsAndServices' | 'atmOnly' | 'cashOnly' | 'reserved'
  pin: 'required' | 'ifPedPresent' | 'notRequired'
}

const INTERCHANGE: Readonly<Record<string, ServiceCodeInfo['interchange']>> = {
  '1': 'international',
  '2': 'international',
  '5': 'national',
  '6': 'national',
  '7': 'private',
  '9': 'test',
}
const AUTHORIZATION: Readonly<Record<string, ServiceCodeInfo['authorization']>> = {
  '0': 'normal',
  '2': 'byIssuer',
  '4': 'byIssuerUnlessBilateral',
}
const SERVICES: Readonly<Record<string, readonly [ServiceCodeInfo['services'], ServiceCodeInfo['pin']]>> = {
  '0': ['noRestrictions', 'required'],
  '1': ['noRestrictions', 'notRequired'],
  '2': ['goodsAndServices', 'notRequired'],
  '3': ['atmOnly', 'required'],
  '4': ['cashOnly', 'notRequired'],
  '5': ['goodsAndServices', 'required'],
  '6': ['noRestrictions', 'ifPedPresent'],
  '7': ['goodsAndServices', 'ifPedPresent'],
}

/** Interprets a service code; undefined when it is not exactly 3 digits. */
export function parseServiceCode(code: string): ServiceCodeInfo | undefined {
  if (!/^\d{3}$/.test(code)) return undefined
  const [d1, d2, d3] = [code[0] as string, code[1] as string, code[2] as string]
  const [services, pin] = SERVICES[d3] ?? ['reserved', 'notRequired']
  return {
    code,
    interchange: INTERCHANGE[d1] ?? 'reserved',
    chipCapable: d1 === '2' || d1 === '6',
    authorization: AUTHORIZATION[d2] ?? 'reserved',
    services,
    pin,
  }
}
