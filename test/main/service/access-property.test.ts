/**
 * Who may do what, searched rather than exemplified: every caller (a cashier window, the customer
 * display, a POS token with any set of scopes, nexo, the command line, the first-run setup page) ×
 * every operation × who is
 * signed in at that window (nobody, a cashier, a manager, a manager at another window) × the
 * operation's manager rule (a void's age, a tip override, an export with the audit trail) × the
 * approval sent (none, a manager's PIN, a cashier's, a wrong PIN, a proof this caller asked for this
 * request or for another, a proof another caller asked for this request), on a terminal with
 * operators and one without; `approve` itself × every operation it may approve. The expected answer
 * is worked out here from the contract's access rows alone, independently of
 * src-main/service/access.ts, and the real service (real operators and PINs on a real journal, real
 * approvals, real window sign-ins) must agree: the handler runs exactly when access is due, and
 * nowhere else. A failing run prints its seed.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OPERATION_EXAMPLES } from '../../../src-main/api/operation-examples'
import { Operators } from '../../../src-main/operators'
import {
  peopleHandlers,
  type AgentService,
  type Caller,
  type CallContext,
  type Handlers,
  type ServiceParts,
} from '../../../src-main/service'
import {
  MANAGER_APPROVED_OPERATIONS,
  OPERATION_NAMES,
  OPERATIONS,
  TOKEN_SCOPES,
  type OperationName,
  type TokenScope,
} from '../../../src-shared/contract'
import { ScriptedCardReader, TEST_CARDS } from '../../fakes/scripted-card-reader'
import { startEngineHarness, type EngineHarness } from '../../support/engine-harness'
import { testService } from '../../support/service-harness'

const COST = { N: 2 ** 10, r: 8, p: 1 }
const MANAGER = { operatorId: '9', pin: '4321' }
const CASHIER = { operatorId: '17', pin: '1234' }
/** A second manager whose PIN the searches get wrong (it may lock; the first never does). */
const GUESSED = { operatorId: '8', pin: '8888' }
const VOID_MINUTES = 30

type Here = 'nobody' | 'cashier' | 'manager' | 'managerElsewhere'
type Approval = 'none' | 'managerPin' | 'cashierPin' | 'wrongPin' | 'proofForThis' | 'proofForAnother' | 'proofFromAnotherCaller'
type Expected = 'ok' | 'FORBIDDEN' | 'SIGN_IN_REQUIRED' | 'MANAGER_REQUIRED' | 'WRONG_PIN' | 'INVALID_REQUEST'

interface Terminal {
  harness: EngineHarness
  service: AgentService
  /** Operations the handlers ran, with who acted. */
  ran: Array<{ operation: OperationName; context: CallContext }>
  clock: { now: number }
  saleId: string
  saleAt: number
}

const terminals: { open?: Terminal; staffed?: Terminal } = {}

/** Handlers that only record: access is what is under test. `signIn` and `approve` are the real ones. */
function recordingAreas(ran: Terminal['ran']) {
  return (parts: ServiceParts): Handlers<OperationName> => {
    const real = peopleHandlers(parts)
    const table = {} as Record<OperationName, (request: unknown, context: CallContext) => unknown>
    for (const operation of OPERATION_NAMES) {
      table[operation] = (request, context) => {
        ran.push({ operation, context })
        if (operation === 'signIn') return real.signIn(request as never, context)
        if (operation === 'approve') return real.approve(request as never, context)
        return {}
      }
    }
    return table as unknown as Handlers<OperationName>
  }
}

async function startTerminal(staffed: boolean): Promise<Terminal> {
  const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() })
  const harness = await startEngineHarness(reader)
  const sale = await harness.engine.txn.waitForOutcome(harness.engine.txn.sales.start({ amountMinor: 1500, currency: 'USD' }).id)
  const clock = { now: sale.createdAt }
  const ran: Terminal['ran'] = []
  if (staffed) {
    const operators = new Operators(harness.engine.journal.operators, () => clock.now, COST)
    await operators.add({ ...MANAGER, name: 'Maria', role: 'manager' })
    await operators.add({ ...GUESSED, name: 'Omar', role: 'manager' })
    await operators.add({ ...CASHIER, name: 'Ann', role: 'cashier' })
  }
  const service = testService(harness, reader, { voidWithoutManagerMinutes: VOID_MINUTES, now: () => clock.now }, recordingAreas(ran))
  return { harness, service, ran, clock, saleId: sale.id, saleAt: sale.createdAt }
}

beforeAll(async () => {
  terminals.open = await startTerminal(false)
  terminals.staffed = await startTerminal(true)
}, 60_000)
afterAll(async () => {
  for (const terminal of Object.values(terminals)) {
    terminal.service.close()
    await terminal.harness.close()
  }
})

/**
 * What the contract's rows say the answer is, worked out without the service's own check, and who
 * then acts: the operator signed in at this window, or the manager who approved.
 */
function expected(
  caller: Caller,
  operation: OperationName,
  approved: OperationName,
  staffed: boolean,
  here: Here,
  ruleHolds: boolean,
  approval: Approval,
): { answer: Expected; actor?: string; runs: boolean } {
  if (operation === 'approve') return approveAnswer(caller, approved, staffed, here, ruleHolds)
  const answer = answerOf(caller, operation, staffed, here, ruleHolds, approval)
  // signIn checks a PIN in its own handler: it runs whenever its own row lets the caller in.
  const ownRowLetsIn = operation === 'signIn' && reaches(caller, operation)
  return { ...answer, runs: answer.answer === 'ok' || ownRowLetsIn }
}

/**
 * `approve` of `approved`: let in by its own row's doors and, for a token, the scope of the approved
 * request (never `read`); its handler then refuses what the caller could not ask itself, a request
 * that needs no manager (a tip without the override, an export without the audit trail), and a PIN
 * nobody has (no operators), before it gives a proof.
 */
function approveAnswer(
  caller: Caller,
  approved: OperationName,
  staffed: boolean,
  here: Here,
  ruleHolds: boolean,
): { answer: Expected; actor?: string; runs: boolean } {
  if (!mayAskApproval(caller, approved, ruleHolds)) return { answer: 'FORBIDDEN', runs: false }
  if (!reaches(caller, approved, ruleHolds)) return { answer: 'FORBIDDEN', runs: true }
  const rule = OPERATIONS[approved].access.manager
  if ((rule === 'tipOverride' || rule === 'auditIncluded') && !ruleHolds) return { answer: 'INVALID_REQUEST', runs: true }
  if (!staffed) return { answer: 'WRONG_PIN', runs: true }
  const atThisWindow = caller.door === 'counter' ? here : 'nobody'
  const ownId = atThisWindow === 'cashier' ? CASHIER.operatorId : atThisWindow === 'manager' ? MANAGER.operatorId : undefined
  return { answer: 'ok', runs: true, ...(ownId ? { actor: ownId } : {}) }
}

/** Whether `approve`'s own row lets this caller ask a manager's approval of `approved`: its doors, and a token's scope. */
function mayAskApproval(caller: Caller, approved: OperationName, ruleHolds: boolean): boolean {
  if (!OPERATIONS.approve.access.doors.includes(caller.door)) return false
  if (caller.door !== 'pos' && caller.door !== 'nexo') return true
  // The approved request's own scope (its row's, or scopeWhen's when asked for), and never `read`.
  const row = OPERATIONS[approved].access
  const own = ruleHolds && row.scopeWhen ? row.scopeWhen.scope : row.scope
  const needed = own === 'read' ? (row.scopeWhen?.scope ?? 'admin') : own
  return caller.token.scopes.includes('admin') || caller.token.scopes.includes(needed)
}

function answerOf(
  caller: Caller,
  operation: OperationName,
  staffed: boolean,
  here: Here,
  ruleHolds: boolean,
  approval: Approval,
): { answer: Expected; actor?: string } {
  const row = OPERATIONS[operation].access
  // The rule's field and scopeWhen's are the same request field here (an export's `audit`).
  if (!reaches(caller, operation, ruleHolds)) return { answer: 'FORBIDDEN' }
  // A POS behind a door the row names approves with its own staff rules (a nexo POS's refunds).
  if (row.posApproves?.includes(caller.door)) return { answer: 'ok' }
  // Without operators every door's own work is open; only a PIN has nobody to be (signIn runs and refuses it).
  if (!staffed) return { answer: operation === 'signIn' ? 'WRONG_PIN' : 'ok' }
  const signedInHere = caller.door === 'counter' && (here === 'cashier' || here === 'manager') ? here : undefined
  const ownId = signedInHere === 'cashier' ? CASHIER.operatorId : signedInHere === 'manager' ? MANAGER.operatorId : undefined
  if (caller.door === 'counter' && row.signIn && !signedInHere) return { answer: 'SIGN_IN_REQUIRED' }
  const managerNeeded = row.manager === 'always' || row.manager === 'notFirstOperator' || (row.manager !== 'never' && ruleHolds)
  if (!managerNeeded) return { answer: 'ok', ...(ownId ? { actor: ownId } : {}) }
  if (signedInHere === 'manager') return { answer: 'ok', actor: MANAGER.operatorId }
  // A number and PIN approve only where the manager types them, the cashier window and the setup
  // page; elsewhere they are refused unread.
  const pinDoor = caller.door === 'counter' || caller.door === 'setup'
  if (pinDoor && approval === 'managerPin') return { answer: 'ok', actor: MANAGER.operatorId }
  if (pinDoor && approval === 'wrongPin') return { answer: 'WRONG_PIN' }
  // A proof approves only the request and the caller it was asked for (by that caller, through approve).
  if (approval === 'proofForThis' && mayAskApproval(caller, operation, ruleHolds)) return { answer: 'ok', actor: MANAGER.operatorId }
  return { answer: 'MANAGER_REQUIRED' }
}

/**
 * Whether the operation's row lets this caller's door, and its token's scopes, in at all; `asksMore`:
 * the request asks for what the row's `scopeWhen` names (an export with the audit trail).
 */
function reaches(caller: Caller, name: OperationName, asksMore = false): boolean {
  const access = OPERATIONS[name].access
  if (!access.doors.includes(caller.door)) return false
  if (caller.door !== 'pos' && caller.door !== 'nexo') return true
  const scope = asksMore && access.scopeWhen ? access.scopeWhen.scope : access.scope
  return caller.token.scopes.includes('admin') || caller.token.scopes.includes(scope)
}

const scopesArb = fc.subarray<TokenScope>([...TOKEN_SCOPES], { minLength: 1 })
const doorArb = fc.constantFrom('counter', 'display', 'pos', 'nexo', 'cli', 'setup')
const hereArb = fc.constantFrom<Here>('nobody', 'cashier', 'manager', 'managerElsewhere')
const approvalArb = fc.constantFrom<Approval>(
  'none',
  'managerPin',
  'cashierPin',
  'wrongPin',
  'proofForThis',
  'proofForAnother',
  'proofFromAnotherCaller',
)
/** What an `approve` asks a manager to approve. */
const approvedArb = fc.constantFrom(...MANAGER_APPROVED_OPERATIONS)

let run = 0

describe('access: every caller × scope × operation × who is signed in × rule × approval', () => {
  it('the service answers what the contract rows say, and runs a handler only then', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        doorArb,
        scopesArb,
        fc.constantFrom(...OPERATION_NAMES),
        approvedArb,
        hereArb,
        fc.boolean(),
        approvalArb,
        async (staffed, door, scopes, operation, approved, here, ruleHolds, approval) => {
          const terminal = staffed ? terminals.staffed! : terminals.open!
          run++
          // Windows as a launch link opens them, each chain rooted at its own opener (PIN tries are
          // counted per root; the clock below goes back and forth).
          const open = (view: 'cashier' | 'customer') =>
            terminal.service.windows.redeem(terminal.service.windows.issue(view, { kind: 'token', id: `root-${run}-${view}` }))!.id
          const session = open(door === 'display' ? 'customer' : 'cashier')
          const elsewhere = open('cashier')
          const token = { id: `token-${run}`, name: `POS ${run}`, scopes }
          const caller: Caller =
            door === 'counter' || door === 'display'
              ? { door, session }
              : door === 'pos'
                ? { door, token }
                : door === 'nexo'
                  ? { door, token, saleId: `POS-${run}` }
                  : { door }
          // The clock: a void's age rule holds for a sale older than the terminal's limit.
          terminal.clock.now = terminal.saleAt + (ruleHolds ? VOID_MINUTES + 1 : 1) * 60_000
          if (staffed && here !== 'nobody') {
            const window: Caller = { door: 'counter', session: here === 'managerElsewhere' ? elsewhere : session }
            const who = here === 'cashier' ? CASHIER : MANAGER
            const signedIn = await terminal.service.dispatch(window, 'signIn', who)
            expect(signedIn.ok).toBe(true)
          }
          const request =
            operation === 'approve'
              ? { operation: approved, request: await requestFor(terminal, caller, approved, ruleHolds, 'none'), ...MANAGER }
              : await requestFor(terminal, caller, operation, ruleHolds, approval)
          const before = terminal.ran.length
          const result = await terminal.service.dispatch(caller, operation, request)
          const ran = terminal.ran.slice(before).filter((r) => r.operation === operation)
          const want = expected(caller, operation, approved, staffed, here, ruleHolds, approval)
          const got = result.ok ? 'ok' : ['PIN_WRONG', 'OPERATOR_LOCKED'].includes(result.error.code) ? 'WRONG_PIN' : result.error.code
          const drawn = { operation, ...(operation === 'approve' ? { approved } : {}), door, scopes, here, ruleHolds, approval }
          expect({ ...drawn, got }).toEqual({ ...drawn, got: want.answer })
          // The handler runs exactly when access is due.
          expect({ ...drawn, ran: ran.length }).toEqual({ ...drawn, ran: want.runs ? 1 : 0 })
          if (want.answer === 'ok') expect({ ...drawn, actor: ran[0]!.context.actor }).toEqual({ ...drawn, actor: want.actor })
        },
      ),
      { numRuns: Number(process.env.ACCESS_RUNS ?? 800), ...(process.env.ACCESS_SEED ? { seed: Number(process.env.ACCESS_SEED) } : {}) },
    )
  }, 240_000)
})

/** The operation's example request, with the rule's field and the approval the run draws. */
async function requestFor(terminal: Terminal, caller: Caller, operation: OperationName, ruleHolds: boolean, approval: Approval) {
  const request: Record<string, unknown> = { ...(OPERATION_EXAMPLES[operation] as Record<string, unknown>) }
  delete request.approval
  const rule = OPERATIONS[operation].access.manager
  if (rule === 'voidAge') request.id = terminal.saleId
  if (rule === 'tipOverride') request.managerOverride = ruleHolds
  if (rule === 'auditIncluded') request.audit = ruleHolds
  const shape = OPERATIONS[operation].request as unknown as { shape?: Record<string, unknown> }
  if (!shape.shape || !('approval' in shape.shape) || approval === 'none') return request
  if (approval === 'managerPin') return { ...request, approval: MANAGER }
  if (approval === 'cashierPin') return { ...request, approval: CASHIER }
  if (approval === 'wrongPin') return { ...request, approval: { operatorId: GUESSED.operatorId, pin: '0000' } }
  // A proof, asked by the caller itself for exactly this request or for another one of the same
  // operation, or by another caller (an admin POS) for exactly this request.
  const asker: Caller =
    approval === 'proofFromAnotherCaller' ? { door: 'pos', token: { id: `asker-${run}`, name: 'back office', scopes: ['admin'] } } : caller
  const proof = await terminal.service.dispatch(asker, 'approve', {
    operation,
    request: approval === 'proofForThis' ? request : another(operation, request),
    ...MANAGER,
  })
  // Refused (no operators, so no PIN is anyone's; or a caller that may not ask one): the proof is a
  // well-formed one nobody gave.
  if (!proof.ok) return { ...request, approval: `apv_${'x'.repeat(43)}` }
  return { ...request, approval: (proof.value as { approval: string }).approval }
}

/** Another valid request of the same operation: a field changed, so its hash differs. */
function another(operation: OperationName, rest: Record<string, unknown>): Record<string, unknown> {
  if (typeof rest.id === 'string') return { ...rest, id: `${rest.id}-other` }
  if (typeof rest.operatorId === 'string') return { ...rest, operatorId: `${rest.operatorId}0` }
  if (typeof rest.amountMinor === 'number') return { ...rest, amountMinor: rest.amountMinor + 1 }
  if (typeof rest.name === 'string') return { ...rest, name: `${rest.name} other` }
  if (typeof rest.key === 'string') return { ...rest, key: rest.key.split('').reverse().join('') }
  return { ...rest, batch: 7 }
}
