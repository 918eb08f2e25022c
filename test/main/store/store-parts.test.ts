/**
 * The store domain's pure parts, table-driven: subject tokens that survive any terminal or sale id,
 * the fleet's reading of heartbeats in plain words, and the rescue report's CSV.
 */
import { describe, expect, it } from 'vitest'
import { copySubject, fleetView, rescueCsv, type Heartbeat, type RescueReport } from '../../../src-main/store'
import { fromSubjectToken, itemOfSubject, subjectToken, terminalKey, storeOfKey } from '../../../src-main/store/store-names'
import { internalWordsIn } from '../../support/internal-words'

describe('subject tokens', () => {
  it.each(['T-0003', 'T.0003', 'lane 7', 'Caisse-Été', 'a*b>c', 'x=y', 'T-0001-K2CQ8001-00000001-T2'])(
    '%s round-trips and is one valid token',
    (text) => {
      const token = subjectToken(text)
      expect(token).toMatch(/^[A-Za-z0-9_=-]+$/)
      expect(fromSubjectToken(token)).toBe(text)
    },
  )

  it('names an item by store, terminal, operation and message id, and reads it back', () => {
    const subject = copySubject('S.1', 'T 3', 'reversal', 'T3-0001.x')
    expect(subject).toBe('pos.queue.S=2E1.T=203.reversal.T3-0001=2Ex')
    expect(itemOfSubject(subject)).toEqual({ operation: 'reversal', messageId: 'T3-0001.x' })
    expect(storeOfKey(terminalKey('S.1', 'T 3'))).toEqual({ storeId: 'S.1', terminalId: 'T 3' })
    expect(() => subjectToken('')).toThrow()
  })
})

const beat = (over: Partial<Heartbeat>): Heartbeat => ({
  storeId: 'S1',
  terminalId: 'T-0001',
  lastSeen: 1_000_000,
  version: '0.1.0',
  queueDepth: 0,
  storedCount: 0,
  attentionCount: 0,
  alarms: [],
  reader: 'ready',
  bank: 'reachable',
  fenced: false,
  uncopied: 0,
  heartbeatSeconds: 15,
  ...over,
})

describe('what the fleet says needs a person', () => {
  it.each<[string, Partial<Heartbeat>, number, string[]]>([
    ['a healthy lane', {}, 1_000_000 + 30_000, []],
    ['a lane silent for three heartbeats', {}, 1_000_000 + 46_000, ['not heard from for 46 seconds']],
    ['a long silence in minutes', {}, 1_000_000 + 600_000, ['not heard from for 10 minutes']],
    ['a rescued lane', { fenced: true }, 1_000_000, ['its waiting payments were rescued: check it before using it again']],
    ['sales needing a manager', { attentionCount: 2 }, 1_000_000, ['2 sales need a manager']],
    ['items without a copy', { uncopied: 3 }, 1_000_000, ['3 waiting messages have no copy at the store']],
    [
      'the bank unreachable with messages waiting',
      { bank: 'unreachable', queueDepth: 4 },
      1_000_000,
      ['the bank cannot be reached; 4 messages wait'],
    ],
    ['the bank unreachable with nothing waiting', { bank: 'unreachable' }, 1_000_000, []],
    ['a reader not connected', { reader: 'not connected' }, 1_000_000, ['card reader: not connected']],
  ])('%s', (_, over, now, expected) => {
    const [lane] = fleetView([beat(over)], now)
    expect(lane!.needsPerson).toEqual(expected)
    for (const words of lane!.needsPerson) expect(internalWordsIn(words)).toEqual([])
  })

  it('lists lanes by store, then terminal', () => {
    const lanes = fleetView(
      [beat({ storeId: 'S2', terminalId: 'A' }), beat({ terminalId: 'T-0002' }), beat({ terminalId: 'T-0001' })],
      1_000_000,
    )
    expect(lanes.map((l) => `${l.storeId}/${l.terminalId}`)).toEqual(['S1/T-0001', 'S1/T-0002', 'S2/A'])
  })
})

describe("the rescue report's CSV", () => {
  it('has one line per item, quotes what needs quoting, and holds no card data but the masked number', () => {
    const report: RescueReport = {
      storeId: 'S1',
      terminalId: 'T-0003',
      fence: { storeId: 'S1', terminalId: 'T-0003', rescuedAt: '2026-11-25T10:00:00.000Z', by: 'lane-2', rescueId: 'r1' },
      continued: false,
      startedAt: '2026-11-25T10:00:00.000Z',
      endedAt: '2026-11-25T10:00:01.000Z',
      left: 1,
      refusedCopies: 0,
      lines: [
        {
          saleId: 'T3-1',
          operation: 'payment',
          messageId: 'T3-1',
          amountMinor: 1100,
          currency: 'USD',
          card: '476173******0010',
          queuedAt: 'q1',
          result: 'approved',
          bankSaid: 'approved',
          authCode: 'A1B2C3',
        },
        {
          saleId: 'T3-2',
          operation: 'payment',
          messageId: 'T3-2',
          amountMinor: 1200,
          currency: 'USD',
          card: '',
          queuedAt: 'q2',
          result: 'declined',
          bankSaid: 'declined: insufficient funds, "51"',
        },
      ],
    }
    expect(rescueCsv(report).split('\n')).toEqual([
      'sale,what,message,amount_minor,currency,card,queued_at,result,bank_said,auth_code',
      'T3-1,payment,T3-1,1100,USD,476173******0010,q1,approved,approved,A1B2C3',
      'T3-2,payment,T3-2,1200,USD,,q2,declined,"declined: insufficient funds, ""51""",',
      '',
    ])
  })
})
