/**
 * Staff, as a manager manages them on the Staff screen: the operators of this terminal (never a PIN),
 * adding a cashier or a manager, a new PIN, lifting a lockout, and disabling someone who left. Each
 * goes through the approving bridge: where the agent wants a manager's approval, the dialog asks.
 */
import type { OperatorView } from '../../../../../src-shared/contract'
import { describeError } from '../../error-words'
import type { Notice, SliceCreator } from '../../store-types'

export interface NewStaff {
  operatorId: string
  name: string
  role: 'cashier' | 'manager'
  pin: string
}

export interface StaffSlice {
  staff: OperatorView[]
  staffBusy: boolean
  staffNotice: Notice | null
  refreshStaff(): Promise<void>
  addStaff(person: NewStaff): Promise<boolean>
  setStaffPin(operatorId: string, pin: string): Promise<boolean>
  unlockStaff(operatorId: string): Promise<void>
  disableStaff(operatorId: string): Promise<void>
}

export const createStaffSlice: SliceCreator<StaffSlice> =
  ({ bridge }) =>
  (set, get) => {
    /** One change, then the list again; its outcome in words next to the screen's controls. */
    const change = async (work: () => Promise<{ ok: true; words: string } | { ok: false; words: string }>): Promise<boolean> => {
      if (get().staffBusy) return false
      set({ staffBusy: true, staffNotice: null })
      const outcome = await work()
      set({ staffBusy: false, staffNotice: { tone: outcome.ok ? 'ok' : 'error', text: outcome.words } })
      await get().refreshStaff()
      if (outcome.ok) await get().refreshOperator()
      return outcome.ok
    }
    return {
      staff: [],
      staffBusy: false,
      staffNotice: null,

      async refreshStaff() {
        const result = await bridge.call('listOperators', {})
        if (result.ok) set({ staff: result.value })
        else set({ staffNotice: { tone: 'error', text: describeError(result.error) } })
      },

      addStaff: (person) =>
        change(async () => {
          const result = await bridge.call('addOperator', person)
          return result.ok
            ? { ok: true, words: `${result.value.name} can now sign in with number ${result.value.id}.` }
            : { ok: false, words: `${person.name} was not added: ${describeError(result.error)}` }
        }),

      setStaffPin: (operatorId, pin) =>
        change(async () => {
          const result = await bridge.call('setOperatorPin', { operatorId, pin })
          return result.ok
            ? { ok: true, words: `${result.value.name} has a new PIN.` }
            : { ok: false, words: `The PIN was not changed: ${describeError(result.error)}` }
        }),

      async unlockStaff(operatorId) {
        await change(async () => {
          const result = await bridge.call('unlockOperator', { operatorId })
          return result.ok
            ? { ok: true, words: `${result.value.name} can sign in again.` }
            : { ok: false, words: `Still locked: ${describeError(result.error)}` }
        })
      },

      async disableStaff(operatorId) {
        await change(async () => {
          const result = await bridge.call('disableOperator', { operatorId })
          return result.ok
            ? { ok: true, words: `${result.value.name} can no longer sign in.` }
            : { ok: false, words: `Not done: ${describeError(result.error)}` }
        })
      },
    }
  }
