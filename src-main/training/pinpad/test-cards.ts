/**
 * The simulated PIN pad's named test cards (docs/device-protocol.md D7.23). Public test numbers
 * (docs/card-reader.md §3, §4.3; the brands' published test PANs), far expiries (D4.5) except the
 * expired card. Each card says what the customer does at each 02-40, in turn, so one name scripts a
 * whole sale, e.g. the chip card that is swiped, refused, inserted, fails, and is swiped again as a
 * fallback.
 */

/**
 * What the customer does when the reader waits for a card, and how the reader answers it:
 * - `chipFail`: the chip does not answer (0A, error 30 "Card did not respond");
 * - `chipError`: the chip answers with an error status (0A, error 20 "Card returned error status",
 *   SW 9000, RF state 03, the record of ID TECH's QA scripts, docs/neo2-protocol.md §3.2);
 * - `chipCannotStart`: the reader cannot start the chip (status 80, docs/neo2-protocol.md §9.1);
 * - `insertWhileTapping`: the card goes into the slot while the reader listens for a tap or swipe
 *   (status 81, "CTLS/MSR cancelled due to card insertion"; only when it listens to those).
 */
export const SIM_STEPS = ['chip', 'contactless', 'swipe', 'chipFail', 'chipError', 'chipCannotStart', 'insertWhileTapping'] as const
export type SimStep = (typeof SIM_STEPS)[number]

export interface SimCard {
  name: string
  /** What the card is and does, for whoever maintains the simulator. */
  description: string
  /** The same, in the words a trainee picks a card by (shown by the cashier screen's test card picker). */
  trainee: { label: string; description: string }
  pan: string
  /** YYMM */
  expiry: string
  serviceCode: string
  /** Track 1 name and tag 5F20 (which the agent must never put into icCardData). */
  cardholder: string
  /** One step per 02-40; after the last one the card is gone. */
  steps: readonly SimStep[]
  /** Chip/contactless: AID (4F) and label (50). */
  aid?: string
  label?: string
  /** 5F34 PAN sequence number, one BCD byte. */
  panSequence?: string
  /** The card's CVM asks for online PIN (9F34 = 42 03 00); `key` is the simulated PIN pad's key set. */
  onlinePin?: { pin: string; key: 'tdes' | 'aes' }
  /** What the card says at 60-12 when the host approved: TC, or AAC (declines after approval). */
  afterApproval: 'tc' | 'aac'
  /**
   * What the card says when the terminal could not go online (8A = Z3): TC approves offline (an
   * amount under the card's floor limit, the common case for store-and-forward), AAC declines.
   */
  whenOffline: 'tc' | 'aac'
}

const card = (c: Omit<SimCard, 'afterApproval' | 'whenOffline'> & Partial<Pick<SimCard, 'afterApproval' | 'whenOffline'>>): SimCard => ({
  afterApproval: 'tc',
  whenOffline: 'tc',
  ...c,
})

const VISA = { aid: 'A0000000031010', label: 'VISA CREDIT', panSequence: '01' }
const MASTERCARD = { aid: 'A0000000041010', label: 'MASTERCARD', panSequence: '00' }

export const TEST_CARDS = {
  'chip-visa': card({
    name: 'chip-visa',
    trainee: { label: 'Visa chip card', description: 'Inserted; the bank approves it.' },
    description: 'Visa chip card; approves after host approval (TC)',
    pan: '4761739001010010',
    expiry: '4912',
    serviceCode: '201',
    cardholder: 'TEST/VISA CHIP',
    steps: ['chip'],
    ...VISA,
  }),
  'contactless-mastercard': card({
    name: 'contactless-mastercard',
    trainee: { label: 'Mastercard, tapped', description: 'Contactless; no PIN.' },
    description: 'Mastercard tapped (contactless EMV, ARQC, no second dialogue)',
    pan: '5413330089010434',
    expiry: '4912',
    serviceCode: '201',
    cardholder: 'TEST/MC TAP',
    steps: ['contactless'],
    ...MASTERCARD,
  }),
  'swipe-magstripe': card({
    name: 'swipe-magstripe',
    trainee: { label: 'Visa stripe-only card', description: 'Swiped; a card without a chip.' },
    description: 'Magstripe-only Visa (service code 101)',
    pan: '4111111111111111',
    expiry: '4912',
    serviceCode: '101',
    cardholder: 'TEST/MAGSTRIPE',
    steps: ['swipe'],
  }),
  'chip-swiped': card({
    name: 'chip-swiped',
    trainee: { label: 'Chip card, swiped', description: 'The reader asks for the chip, the chip fails, then the card is swiped.' },
    description: 'Chip card swiped (service code 201): insert chip, chip fails, fallback swipe',
    pan: '4000056655665556',
    expiry: '4912',
    serviceCode: '201',
    cardholder: 'TEST/FALLBACK',
    steps: ['swipe', 'chipFail', 'swipe'],
  }),
  expired: card({
    name: 'expired',
    trainee: { label: 'Expired card', description: 'Swiped; it expired in December 2020.' },
    description: 'Magstripe card that expired in December 2020',
    pan: '4012888888881881',
    expiry: '2012',
    serviceCode: '101',
    cardholder: 'TEST/EXPIRED',
    steps: ['swipe'],
  }),
  'luhn-invalid': card({
    name: 'luhn-invalid',
    trainee: { label: 'Card with a wrong number', description: 'Refused at the terminal; nothing is sent to the bank.' },
    description: 'Magstripe card whose check digit is wrong: the terminal refuses it, nothing is sent',
    pan: '4111111111111112',
    expiry: '4912',
    serviceCode: '101',
    cardholder: 'TEST/BAD LUHN',
    steps: ['swipe'],
  }),
  'pin-tdes': card({
    name: 'pin-tdes',
    trainee: { label: 'Visa chip card with PIN', description: 'Asks for the PIN 1234 on the PIN pad.' },
    description: 'Visa chip asking for online PIN 1234: TDES DUKPT (X9.24-1 test BDK), ISO format 0',
    pan: '4012345678909',
    expiry: '4912',
    serviceCode: '201',
    cardholder: 'TEST/PIN TDES',
    steps: ['chip'],
    ...VISA,
    onlinePin: { pin: '1234', key: 'tdes' },
  }),
  'pin-aes': card({
    name: 'pin-aes',
    trainee: { label: 'Mastercard chip card with PIN', description: 'Asks for the PIN 1234 on the PIN pad.' },
    description: 'Mastercard chip asking for online PIN 1234: AES DUKPT (X9.24-3 test BDK), ISO format 4',
    pan: '5555555555554444',
    expiry: '4912',
    serviceCode: '201',
    cardholder: 'TEST/PIN AES',
    steps: ['chip'],
    ...MASTERCARD,
    onlinePin: { pin: '1234', key: 'aes' },
  }),
  'offline-decline': card({
    name: 'offline-decline',
    trainee: { label: 'Visa chip card, no offline approval', description: 'Declines when the bank cannot be reached.' },
    description: 'Visa chip that declines offline (AAC) when the host cannot be reached',
    pan: '4000000000000010',
    expiry: '4912',
    serviceCode: '201',
    cardholder: 'TEST/NO OFFLINE',
    steps: ['chip'],
    ...VISA,
    whenOffline: 'aac',
  }),
  'aac-after-approval': card({
    name: 'aac-after-approval',
    trainee: {
      label: 'Visa chip card that refuses at the end',
      description: 'The bank approves, then the card declines: the sale is reversed.',
    },
    description: 'Visa chip that declines (AAC) at 60-12 even though the host approved',
    pan: '4000000000000002',
    expiry: '4912',
    serviceCode: '201',
    cardholder: 'TEST/AAC',
    steps: ['chip'],
    ...VISA,
    afterApproval: 'aac',
  }),
} as const satisfies Record<string, SimCard>

export type TestCardName = keyof typeof TEST_CARDS
export const TEST_CARD_NAMES = Object.keys(TEST_CARDS) as TestCardName[]

/** The card a training-mode PIN pad presents when nobody presents one. */
export const DEFAULT_TRAINING_CARD: TestCardName = 'chip-visa'

export function isTestCardName(name: string): name is TestCardName {
  return Object.hasOwn(TEST_CARDS, name)
}
