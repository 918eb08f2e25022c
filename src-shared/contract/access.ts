/**
 * Who may ask the agent for what. Each operation's access is one row of its declaration
 * (operations.ts); src-main/service/access.ts is the one check that reads those rows. No door
 * (local API, Electron IPC, nexo, command line) holds a rule of its own.
 *
 * - A door is how the call came: the cashier window, the customer display, a POS with an integrator
 *   token over the local API or nexo, a cash register over ZVT (its scopes configured with the
 *   terminal's ZVT password, docs/zvt.md), the command line of the machine's owner, the first-run
 *   setup page.
 * - A token's scopes are chosen when a manager makes it; a token never does more than its scopes.
 * - At the counter, once the terminal has a manager, an operator signs in first, and what a manager
 *   approves needs a manager: signed in at that same counter, or their approval for that one request.
 */

export const DOORS = ['counter', 'display', 'pos', 'nexo', 'zvt', 'cli', 'setup'] as const
/** How a call reached the agent (see the file comment). */
export type Door = (typeof DOORS)[number]

/**
 * What an integrator token may do:
 * - `read`: look at sales, the queue, reports, the reader and printer, open a customer display;
 * - `sell`: ring up, cancel, void and tip sales, print and mail receipts, work the queue, close the day;
 * - `refund`: returns, with or without the sale;
 * - `admin`: the signing key, tokens, operators, the audit trail, and opening a cashier window.
 * `admin` includes the others. The installation token (`<data folder>/api-token`, readable only by the
 * machine's owner) is `admin`; a token a manager makes is never `admin` unless they choose it.
 */
export const TOKEN_SCOPES = ['read', 'sell', 'refund', 'admin'] as const
export type TokenScope = (typeof TOKEN_SCOPES)[number]

/** A new token's scopes when its maker names none: a POS's everyday work, nothing more. */
export const DEFAULT_TOKEN_SCOPES: readonly TokenScope[] = ['read', 'sell']

/**
 * When a manager approves an operation (once the terminal has a manager):
 * - `never`, `always`;
 * - `voidAge`: a void of a sale older than the terminal's `voidWithoutManagerMinutes`;
 * - `tipOverride`: a tip past the tolerance (`managerOverride`);
 * - `auditIncluded`: a day export that carries the audit trail;
 * - `notFirstOperator`: adding an operator, except the terminal's first manager.
 */
export const MANAGER_RULES = ['never', 'always', 'voidAge', 'tipOverride', 'auditIncluded', 'notFirstOperator'] as const
export type ManagerRule = (typeof MANAGER_RULES)[number]

export interface OperationAccess {
  /** The doors it is open at; every other door is refused before anything is read. */
  readonly doors: readonly Door[]
  /** The scope a token needs (local API and nexo); `admin` holds every scope. */
  readonly scope: TokenScope
  /** At the counter of a terminal with a manager: only with an operator signed in there. */
  readonly signIn: boolean
  readonly manager: ManagerRule
  /** Recorded in the audit trail, whoever asks and whatever the answer. */
  readonly audited: boolean
  /**
   * Doors where the caller stands for the manager's approval: the POS behind a token approves with
   * its own staff rules (a nexo POS refunds as Adyen's integrations do, with no PIN to give); the
   * command line is the machine's owner, whose account holds the keychain a manager's approval of a
   * key would guard.
   */
  readonly posApproves?: readonly Door[]
  /** A wider scope a token needs when the request asks for more (`field` true), e.g. the audit trail in an export. */
  readonly scopeWhen?: { readonly field: string; readonly scope: TokenScope }
  /**
   * The scope is the approved request's, not the row's (`approve`): `approvalScope` of the operation
   * and request it names; before the request is read, any scope but `read`.
   */
  readonly scopeOfApproved?: boolean
}

/**
 * Where a manager's number and PIN sent with a request approve it: only where the manager types it,
 * the cashier window and the first-run setup page on this computer. Elsewhere (a POS's token, nexo)
 * a PIN goes through `approve` and what comes back is a proof for that one request and that one
 * caller: no component that relays a request ever holds a manager's standing credential.
 */
export const PIN_APPROVAL_DOORS: readonly Door[] = ['counter', 'setup']

const READ_DOORS = ['counter', 'display', 'pos', 'nexo', 'zvt', 'cli'] as const
const WORK_DOORS = ['counter', 'pos', 'nexo', 'cli'] as const
const ADMIN_DOORS = ['counter', 'pos', 'cli'] as const

/** A row for a reading operation: every door, `read`, no sign-in, no manager. */
export function reads(doors: readonly Door[] = READ_DOORS): OperationAccess {
  return { doors, scope: 'read', signIn: false, manager: 'never', audited: false }
}

/** A row for an operation that changes something of a sale or the day, done by an operator. */
export function works(scope: 'sell' | 'refund', manager: ManagerRule = 'never', extra: Partial<OperationAccess> = {}): OperationAccess {
  return { doors: WORK_DOORS, scope, signIn: true, manager, audited: manager === 'always', ...extra }
}

/** A row for the terminal's own keys, tokens, operators and windows: `admin`, always audited. */
export function administers(manager: ManagerRule, extra: Partial<OperationAccess> = {}): OperationAccess {
  return { doors: ADMIN_DOORS, scope: 'admin', signIn: true, manager, audited: true, ...extra }
}

/**
 * A row opened to the ZVT door too (docs/zvt.md): only the operations a register's ZVT commands
 * become. `registerApproves`: the register's password on the command (PA00P015 asks it on reversals,
 * refunds and the end of day) stands for the manager's approval, as a nexo POS's staff rules do.
 */
export function atZvt(access: OperationAccess, registerApproves = false): OperationAccess {
  return {
    ...access,
    doors: [...access.doors, 'zvt'],
    ...(registerApproves ? { posApproves: [...(access.posApproves ?? []), 'zvt'] } : {}),
  }
}

/**
 * A row opened to the first-run setup page too (the `setup` door): only what setup does, storing the
 * signing key, seeing and adding the terminal's first manager. Its rules stay the row's: once the
 * terminal has a manager, what needs one needs their number and PIN on the page.
 */
export function atSetup(access: OperationAccess): OperationAccess {
  return { ...access, doors: [...access.doors, 'setup'] }
}

/** The scope a token needs for this request of an operation (its row's, or `scopeWhen`'s when asked for). */
export function scopeFor(access: OperationAccess, request: Record<string, unknown> | undefined): TokenScope {
  return access.scopeWhen && request?.[access.scopeWhen.field] === true ? access.scopeWhen.scope : access.scope
}

/**
 * The scope a token needs to ask a manager's approval of `request` (the `approve` operation): the
 * approved request's own, and never `read`: what a read-only token may ask needs no manager (an
 * export needs one only with the audit trail, which is `admin`'s), so a read-only token never tries a
 * manager's PIN.
 */
export function approvalScope(access: OperationAccess, request: Record<string, unknown> | undefined): Exclude<TokenScope, 'read'> {
  const scope = scopeFor(access, request)
  if (scope !== 'read') return scope
  const wider = access.scopeWhen?.scope
  return wider === undefined || wider === 'read' ? 'admin' : wider
}

/** Whether a token with `scopes` may do what needs `needed`. */
export function scopeAllows(scopes: readonly TokenScope[], needed: TokenScope): boolean {
  return scopes.includes('admin') || scopes.includes(needed)
}
