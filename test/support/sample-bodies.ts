/** Request bodies shared by gateway and training-host tests. */

export function samplePayment(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    autoCapture: true,
    merchantTransInfo: { merchantTransID: 'T0001-000001', merchantTransTime: '2026-11-21T10:00:00+01:00' },
    paymentMethod: {
      type: 'card',
      card: { cardInfo: { track2: '4761739001010010=30122011143804400000' }, posEntryMode: '051', pinFlag: false },
    },
    pspInfo: { merchantID: 'M-1', terminalID: 'T0001', storeID: 'S-1' },
    transAmount: { currency: 'USD', value: '12.34' },
    ...overrides,
  }
}
