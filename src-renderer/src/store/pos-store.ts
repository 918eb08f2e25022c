/**
 * The cashier UI's store: one zustand store made of slices (pmndrs/zustand slices pattern), built
 * around an injected bridge and clock. Components read it through pos-context.tsx.
 */
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { PosEvent } from '../../../src-shared/contract'
import { createAppSlice } from './slices/app/app-slice'
import { applyEvent, queueItemsStale } from './apply-event'
import { createDeviceSlice } from './slices/device/device-slice'
import { createQueueSlice } from './slices/queue/queue-slice'
import { createSaleSlice } from './slices/sale/sale-slice'
import { createReturnsSlice } from './slices/returns/returns-slice'
import { createSalesSlice } from './slices/sales/sales-slice'
import type { PosState, StoreDeps } from './store-types'
import { createTipsSlice } from './slices/tips/tips-slice'
import { createTokensSlice } from './slices/tokens/tokens-slice'
import { createReceiptsSlice } from './slices/receipts/receipts-slice'
import { createOperatorSlice } from './slices/operator/operator-slice'
import { createStaffSlice } from './slices/staff/staff-slice'
import { approvingBridge } from './approving-bridge'

export type PosStore = StoreApi<PosState> & {
  /** Applies one live event. */
  receive(event: PosEvent): void
  readonly deps: StoreDeps
}

export function createPosStore(deps: StoreDeps): PosStore {
  // The slices reach the agent through a bridge that asks for a manager when an action needs one:
  // the dialog is the store's `approval`, answered through `answerApproval`.
  let answer: ((credential: { operatorId: string; pin: string } | null) => void) | undefined
  const bridge = approvingBridge(deps.bridge, (operation, problem, described) => {
    store.setState({ approval: { operation, problem, described } })
    return new Promise((resolve) => (answer = resolve))
  })
  const sliceDeps: StoreDeps = { ...deps, bridge }
  const store = createStore<PosState>()((...a) => ({
    ...createAppSlice(sliceDeps)(...a),
    ...createSaleSlice(sliceDeps)(...a),
    ...createSalesSlice(sliceDeps)(...a),
    ...createReturnsSlice(sliceDeps)(...a),
    ...createTipsSlice(sliceDeps)(...a),
    ...createQueueSlice(sliceDeps)(...a),
    ...createDeviceSlice(sliceDeps)(...a),
    ...createTokensSlice(sliceDeps)(...a),
    ...createReceiptsSlice(sliceDeps)(...a),
    ...createOperatorSlice(sliceDeps)(...a),
    ...createStaffSlice(sliceDeps)(...a),
    answerApproval(credential: { operatorId: string; pin: string } | null) {
      store.setState({ approval: null })
      const resolve = answer
      answer = undefined
      resolve?.(credential)
    },
  }))
  const receive = (event: PosEvent): void => {
    const before = store.getState()
    const change = applyEvent(before, event, deps.now())
    if (Object.keys(change).length === 0) return
    store.setState(change)
    if (queueItemsStale(before, store.getState())) void store.getState().refreshQueueItems()
    // A return moves on: what is left to return on its sale (and whether it may be voided) changed with it.
    if (event.type === 'sale' && event.sale.kind === 'return' && event.sale.originalId !== undefined)
      void store.getState().refreshSale(event.sale.originalId)
  }
  return Object.assign(store, { receive, deps })
}

/**
 * Wires the live feed into the store: every event is applied, whether the agent answers is kept (the
 * header and Charge say so), and after the feed comes back from a break everything is loaded again
 * (events may have been missed). Returns the unsubscribe function.
 */
export function connectStore(store: PosStore): () => void {
  const { bridge } = store.deps
  const offEvents = bridge.subscribe((event) => store.receive(event))
  const offReconnect = bridge.onReconnect?.(() => void store.getState().load())
  const offConnection = bridge.onConnection?.((state) => store.setState({ agentAnswering: state === 'up' }))
  return () => {
    offEvents()
    offReconnect?.()
    offConnection?.()
  }
}
