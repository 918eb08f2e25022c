import { describe, expect, it } from 'vitest'
import {
  decideSwipe,
  entryModeFields,
  READ_METHODS,
  readMethodFromNeo2EntryMode,
  terminalReadability,
} from '../../../../src-main/device/card-data/entry-mode'
import type { ReaderCapabilities, SwipeContext } from '../../../../src-main/device/card-data/entry-mode'

const NEO2_PIN_PAD: ReaderCapabilities = { contact: true, contactless: true, magstripe: true, pinPad: true }
const NO_PIN_PAD: ReaderCapabilities = { ...NEO2_PIN_PAD, pinPad: false }

describe('posEntryMode / termReadability / pinFlag (docs/device-protocol.md §5)', () => {
  it.each([
    ['chip', '051'],
    ['contactlessChip', '071'],
    ['contactlessMagstripe', '911'],
    ['swipe', '901'],
    ['fallbackSwipe', '801'],
    ['keyed', '011'],
  ] as const)('%s on a PIN pad → %s', (method, posEntryMode) => {
    expect(entryModeFields(method, NEO2_PIN_PAD, true)).toEqual({ posEntryMode, termReadability: '5', pinFlag: true })
  })

  it('ends in 2 when the terminal cannot take a PIN, and pinFlag follows the online PIN', () => {
    expect(entryModeFields('chip', NO_PIN_PAD, false)).toEqual({ posEntryMode: '052', termReadability: '5', pinFlag: false })
  })

  it('every read method maps to a 3-digit code the gateway schema accepts', () => {
    for (const method of READ_METHODS) expect(entryModeFields(method, NEO2_PIN_PAD, false).posEntryMode).toMatch(/^\d{3}$/)
  })

  it.each([
    [NEO2_PIN_PAD, '5'],
    [{ contact: false, contactless: true, magstripe: true, pinPad: false }, '8'],
    [{ contact: false, contactless: false, magstripe: true, pinPad: false }, '2'],
    [{ contact: false, contactless: false, magstripe: false, pinPad: false }, '0'],
  ])('terminal readability of %o is %s', (reader, expected) => {
    expect(terminalReadability(reader)).toBe(expected)
  })

  it('maps the NEO 2 9F39 values (docs/neo2-protocol.md §3.4) and nothing else', () => {
    expect([0x05, 0x07, 0x91, 0x90, 0x80].map(readMethodFromNeo2EntryMode)).toEqual([
      'chip',
      'contactlessChip',
      'contactlessMagstripe',
      'swipe',
      'fallbackSwipe',
    ])
    expect(readMethodFromNeo2EntryMode(0x02)).toBeUndefined()
  })
})

describe('a swiped chip card gets "insert chip" unless fallback is allowed after a failed chip read', () => {
  const base: SwipeContext = { serviceCode: '201', terminalReadsChip: true, chipReadFailed: false, fallbackAllowed: true }

  it.each([
    ['chip card, chip not tried', {}, { action: 'insertChip', reason: 'chipCard' }],
    ['national chip card (6xx)', { serviceCode: '601' }, { action: 'insertChip', reason: 'chipCard' }],
    ['chip failed, fallback allowed', { chipReadFailed: true }, { action: 'accept', method: 'fallbackSwipe' }],
    [
      'chip failed, fallback not allowed',
      { chipReadFailed: true, fallbackAllowed: false },
      { action: 'insertChip', reason: 'fallbackNotAllowed' },
    ],
    ['magstripe-only card', { serviceCode: '101' }, { action: 'accept', method: 'swipe' }],
    ['magstripe-only card after a chip failure', { serviceCode: '101', chipReadFailed: true }, { action: 'accept', method: 'swipe' }],
    ['chip card on a terminal without a chip reader', { terminalReadsChip: false }, { action: 'accept', method: 'swipe' }],
    ['unreadable service code', { serviceCode: '2O1' }, { action: 'reject', reason: 'badServiceCode' }],
  ] as const)('%s', (_name, patch, expected) => {
    expect(decideSwipe({ ...base, ...patch })).toEqual(expected)
  })
})
