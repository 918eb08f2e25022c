/**
 * Who is at the counter. Once the terminal has operators (cashiers and managers), the counter asks
 * for a sign-in before anything else, shows who is signed in, and, when an action needs a manager
 * (the agent answers MANAGER_REQUIRED), asks for a manager's number and PIN and sends the action again
 * with that approval (approving-bridge.ts). A terminal without operators works as before.
 */
import type { ApprovalRequestView, CounterOperatorView, OperationName } from '../../../../../src-shared/contract'
import { describeError } from '../../error-words'
import type { SliceCreator } from '../../store-types'

/** A manager's approval being asked for: which action, what it does, and the last refusal's words (a wrong PIN). */
export interface ApprovalRequest {
  operation: OperationName
  problem: string | null
  /** What the request does, in the agent's words (null when the agent could not say). */
  described: ApprovalRequestView | null
}

export interface OperatorSlice {
  /** null until loaded, or when the agent does not say (a terminal without operators). */
  counter: CounterOperatorView | null
  signingIn: boolean
  signInProblem: string | null
  approval: ApprovalRequest | null
  refreshOperator(): Promise<void>
  signIn(operatorId: string, pin: string): Promise<boolean>
  signOut(): Promise<void>
  /** The dialog's answer: a manager's number and PIN, or null (the cashier gave up). */
  answerApproval(credential: { operatorId: string; pin: string } | null): void
}

/** Whether the counter must show the sign-in screen. */
export function signInNeeded(s: Pick<OperatorSlice, 'counter'>): boolean {
  return s.counter?.required === true && s.counter.operator === undefined
}

export const createOperatorSlice: SliceCreator<OperatorSlice> =
  ({ bridge }) =>
  (set, get) => {
    /**
     * Which reading of the counter is the latest asked for. A reading that comes back after a newer
     * one was asked (a reload after a reconnect, answered late, overtaking a sign-in's own reading)
     * is older news: it never puts a cashier who just signed in back at the sign-in screen.
     */
    let counterAsked = 0
    return {
      counter: null,
      signingIn: false,
      signInProblem: null,
      approval: null,

      async refreshOperator() {
        const asked = ++counterAsked
        const result = await bridge.call('counterOperator', {})
        if (asked === counterAsked) set({ counter: result.ok ? result.value : null })
      },

      async signIn(operatorId, pin) {
        if (get().signingIn) return false
        set({ signingIn: true, signInProblem: null })
        const result = await bridge.call('signIn', { operatorId, pin })
        if (!result.ok) {
          set({ signingIn: false, signInProblem: describeError(result.error) })
          return false
        }
        set({ signingIn: false, screen: 'sale' })
        // A newer reading: one asked before this sign-in, answered after it, is dropped.
        await get().refreshOperator()
        return true
      },

      async signOut() {
        const asked = ++counterAsked
        const result = await bridge.call('signOut', {})
        if (asked !== counterAsked) return
        // Whoever signs in next starts at the sale screen, with nothing of the last operator's on it.
        if (result.ok) set({ counter: result.value, screen: 'sale', receiptSaleId: null, newToken: null })
      },

      answerApproval() {
        // Replaced by the approving bridge while a request is open (approving-bridge.ts).
      },
    }
  }
