/**
 * Training mode: the simulated PIN pad's test cards (appInfo.trainingCards names them) in words a
 * trainee picks from: what the card is, and what it will do. A card this window does not know keeps
 * its name.
 */
export interface TestCardWords {
  label: string
  description: string
}

const TEST_CARD_WORDS: Readonly<Record<string, TestCardWords>> = {
  'chip-visa': { label: 'Visa chip card', description: 'Inserted; the bank approves it.' },
  'contactless-mastercard': { label: 'Mastercard, tapped', description: 'Contactless; no PIN.' },
  'swipe-magstripe': { label: 'Visa stripe-only card', description: 'Swiped; a card without a chip.' },
  'chip-swiped': {
    label: 'Chip card, swiped',
    description: 'The reader asks for the chip, the chip fails, then the card is swiped.',
  },
  expired: { label: 'Expired card', description: 'Swiped; it expired in December 2020.' },
  'luhn-invalid': { label: 'Card with a wrong number', description: 'Refused at the terminal; nothing is sent to the bank.' },
  'pin-tdes': { label: 'Visa chip card with PIN', description: 'Asks for the PIN 1234 on the PIN pad.' },
  'pin-aes': { label: 'Mastercard chip card with PIN', description: 'Asks for the PIN 1234 on the PIN pad.' },
  'offline-decline': { label: 'Visa chip card, no offline approval', description: 'Declines when the bank cannot be reached.' },
  'aac-after-approval': {
    label: 'Visa chip card that refuses at the end',
    description: 'The bank approves, then the card declines: the sale is reversed.',
  },
}

export function testCardWords(name: string): TestCardWords {
  return TEST_CARD_WORDS[name] ?? { label: name, description: 'A test card of the simulated PIN pad.' }
}
