/**
 * The store domain's pure parts, table-driven: subject tokens that survive any terminal or sale id,
 * the names of a lane's stream and inbox, the fleet's reading of heartbeats and fences in plain
 * words, records from the store server parsed (a bad one read as such, never thrown), and the rescue
 * report's CSV.
 */
import { describe, expect, it } from 'vitest'
import {
  copySubject,
  fencedWords,
  fleetView,
  laneInboxPrefix,
  laneStreamName,
  parseFence,
  parseHeartbeat,
  rescueCsv,
  type Heartbeat,
  type LaneRecords,
  type RescueReport,
} from '../../../src-main/store'
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

const FENCE = { storeId: 'S1', terminalId: 'T-0001', rescuedAt: '2026-11-20T09:15:00.000Z', by: 'lane-2', rescueId: 'r-1' }
const lane = (over: Partial<Heartbeat>, records: Partial<LaneRecords> = {}): LaneRecords => ({
  storeId: 'S1',
  terminalId: 'T-0001',
  heartbeat: beat(over),
  ...records,
})

describe('what the fleet says needs a person', () => {
  it.each<[string, LaneRecords, number, string[]]>([
    ['a healthy lane', lane({}), 1_000_000 + 30_000, []],
    ['a lane silent for three heartbeats', lane({}), 1_000_000 + 46_000, ['not heard from for 46 seconds']],
    ['a long silence in minutes', lane({}), 1_000_000 + 600_000, ['not heard from for 10 minutes']],
    [
      'silence counted from when the store server took the heartbeat, not the time the lane wrote in it',
      lane({ lastSeen: 9_999_999_999 }, { heardAt: 1_000_000 }),
      1_000_000 + 46_000,
      ['not heard from for 46 seconds'],
    ],
    [
      'a rescued lane, by its fence (whatever its heartbeat says)',
      lane({ fenced: false }, { fence: FENCE }),
      1_000_000,
      ['rescued on 2026-11-20 09:15 from lane-2: check it before using it again'],
    ],
    [
      'a fence that does not read',
      lane({}, { fence: parseFence('{"rescuedAt":5}', 'S1', 'T-0001') }),
      1_000_000,
      [
        "a fence for it is at the store server but cannot be read (key S1.T-0001 in the store server's pos_fence bucket): check it before using it again",
      ],
    ],
    [
      'a heartbeat that does not read',
      { storeId: 'S1', terminalId: 'T-0001', heartbeatUnreadable: true },
      1_000_000,
      ["its last heartbeat cannot be read (key S1.T-0001 in the store server's pos_fleet bucket)"],
    ],
    [
      'a fenced lane that never reported',
      { storeId: 'S1', terminalId: 'T-0001', fence: FENCE },
      1_000_000,
      ['rescued on 2026-11-20 09:15 from lane-2: check it before using it again', 'it has not reported to the store server'],
    ],
    ['sales needing a manager', lane({ attentionCount: 2 }), 1_000_000, ['2 sales need a manager']],
    ['items without a copy', lane({ uncopied: 3 }), 1_000_000, ['3 waiting messages have no copy at the store']],
    [
      'the bank unreachable with messages waiting',
      lane({ bank: 'unreachable', queueDepth: 4 }),
      1_000_000,
      ['the bank cannot be reached; 4 messages wait'],
    ],
    ['the bank unreachable with nothing waiting', lane({ bank: 'unreachable' }), 1_000_000, []],
    ['a reader not connected', lane({ reader: 'not connected' }), 1_000_000, ['card reader: not connected']],
  ])('%s', (_, records, now, expected) => {
    const [view] = fleetView([records], now)
    expect(view!.needsPerson).toEqual(expected)
    for (const words of view!.needsPerson) expect(internalWordsIn(words)).toEqual([])
  })

  it('lists lanes by store, then terminal', () => {
    const lanes = fleetView(
      [lane({}, { storeId: 'S2', terminalId: 'A' }), lane({}, { terminalId: 'T-0002' }), lane({}, { terminalId: 'T-0001' })],
      1_000_000,
    )
    expect(lanes.map((l) => `${l.storeId}/${l.terminalId}`)).toEqual(['S1/T-0001', 'S1/T-0002', 'S2/A'])
  })
})

describe('records from the store server are parsed, never trusted', () => {
  it.each([
    ['not JSON', 'not json at all'],
    ['a time that is not one', '{"storeId":"S1","terminalId":"T-0001","rescuedAt":5,"by":"x","rescueId":"x"}'],
    ['a field missing', '{"storeId":"S1","terminalId":"T-0001","by":"x","rescueId":"x"}'],
    ['another terminal named', JSON.stringify({ ...FENCE, terminalId: 'T-0002' })],
    ['empty', ''],
    ['an array', '[]'],
  ])('a fence record that is %s counts as a fence with unknown details, named in plain words', (_, raw) => {
    const fence = parseFence(raw, 'S1', 'T-0001')
    expect(fence.unreadable).toBe("key S1.T-0001 in the store server's pos_fence bucket")
    const words = fencedWords(fence)
    expect(words).toMatch(/holds a fence for this terminal that cannot be read \(key S1\.T-0001 in the store server's pos_fence bucket\)/)
    expect(words).toMatch(/online sales go on/)
    expect(internalWordsIn(words)).toEqual([])
  })

  it("a well-formed fence reads as it was written, a later version's extra fields let through", () => {
    expect(parseFence(JSON.stringify({ ...FENCE, note: 'later' }), 'S1', 'T-0001')).toEqual(FENCE)
    expect(fencedWords(FENCE)).toMatch(/^The store rescued this terminal's waiting payments on 2026-11-20 09:15 \(from lane-2\)/)
  })

  it.each([
    ['not JSON', '{'],
    ['a count that is not one', JSON.stringify({ ...beat({}), queueDepth: 'many' })],
    ['a heartbeat that claims to beat once a day', JSON.stringify({ ...beat({}), heartbeatSeconds: 86_400 })],
    ['another terminal named', JSON.stringify(beat({ terminalId: 'T-0002' }))],
  ])('a heartbeat that is %s does not read', (_, raw) => {
    expect(parseHeartbeat(raw, 'S1', 'T-0001')).toBeUndefined()
  })

  it('a well-formed heartbeat reads as it was written', () => {
    expect(parseHeartbeat(JSON.stringify(beat({ oldestStoredAgeSeconds: 30 })), 'S1', 'T-0001')).toEqual(
      beat({ oldestStoredAgeSeconds: 30 }),
    )
  })
})

describe('names at the store server', () => {
  it.each<[string, string, string, string]>([
    ['S1', 'T-0001', 'POS_QUEUE_S1_T-0001', '_INBOX_S1_T-0001'],
    ['S_1', 'T', 'POS_QUEUE_S=5F1_T', '_INBOX_S=5F1_T'],
    ['S', '1_T', 'POS_QUEUE_S_1=5FT', '_INBOX_S_1=5FT'],
    ['S.1', 'T 3', 'POS_QUEUE_S=2E1_T=203', '_INBOX_S=2E1_T=203'],
  ])('store %j, terminal %j: one stream and one inbox of its own', (storeId, terminalId, stream, inbox) => {
    expect(laneStreamName(storeId, terminalId)).toBe(stream)
    expect(laneInboxPrefix(storeId, terminalId)).toBe(inbox)
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
