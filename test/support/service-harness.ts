/**
 * The application layer on a real engine for tests: an AgentService with a training terminal's
 * facts, and the callers tests act as (a cashier window, a POS with the installation token).
 */
import pino from 'pino'
import { AgentService, INSTALLATION_GRANT, USE_CASE_AREAS, type Caller, type ServiceAreas, type ServiceDeps } from '../../src-main/service'
import type { CardReader } from '../../src-main/device'
import { TEST_SALE_LIMITS, type EngineHarness } from './engine-harness'

/** The cashier window a test acts at. */
export const COUNTER: Caller = { door: 'counter', session: 'test-counter-window' }
/** A POS with the installation token (every scope). */
export const OWNER_POS: Caller = { door: 'pos', token: INSTALLATION_GRANT }

export function testService(
  harness: EngineHarness,
  reader: CardReader,
  overrides: Partial<ServiceDeps> = {},
  areas: ServiceAreas = USE_CASE_AREAS,
): AgentService {
  return new AgentService(
    {
      engine: harness.engine,
      reader,
      secrets: harness.secrets,
      retry: {
        baseDelayMs: 10,
        maxDelayMs: 20,
        maxAttempts: 5,
        maxAgeHours: { payment: 24, reversal: 72, tips: 24, cancel: 24, capture: 24 },
      },
      logger: pino({ level: 'silent' }),
      info: {
        mode: 'training',
        currency: 'USD',
        terminalId: 'T1',
        merchantId: 'M1',
        storeAddress: [],
        restaurantMode: false,
        tipTolerancePercent: 20,
        saleLimits: TEST_SALE_LIMITS,
        trainingCards: [],
      },
      settings: { offlineBaseUrl: harness.host.url, aid: 'ENGINE-ACQ', storeId: 'S1', terminalId: 'T1', merchantId: 'M1' },
      ...overrides,
    },
    areas,
  )
}
