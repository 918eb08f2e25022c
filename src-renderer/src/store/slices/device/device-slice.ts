/** The card reader: whether it is connected, on which port, and the last prompt it gave. */
import type { AmountCheck, DevicePrompt } from '../../../../../src-shared/contract'
import type { SliceCreator } from '../../store-types'

export type DeviceLink = 'connected' | 'disconnected' | 'reconnecting' | 'unknown'

export interface DeviceInfo {
  link: DeviceLink
  port?: string
  busy: boolean
}

/** Every prompt but the connection changes, which belong to DeviceInfo. */
export type CardPrompt = Exclude<DevicePrompt, { type: 'connection' }>

export interface DeviceSlice {
  device: DeviceInfo
  /** The reader's latest prompt for the sale or void on the counter; cleared when a new one starts. */
  prompt: CardPrompt | null
  /** The sale the prompt belongs to, when the agent named it (a prompt for another sale is not this one's). */
  promptSaleId: string | null
  /** A large amount the cashier is checking with the customer before the card (the customer display shows it). */
  amountCheck: AmountCheck | null
  refreshDevice(): Promise<void>
  /** Asks the agent for more time at the card prompt; the prompt comes back with its new end. */
  extendCardRead(): Promise<boolean>
}

export const createDeviceSlice: SliceCreator<DeviceSlice> =
  ({ bridge }) =>
  (set) => ({
    device: { link: 'unknown', busy: false },
    prompt: null,
    promptSaleId: null,
    amountCheck: null,

    async refreshDevice() {
      const result = await bridge.call('deviceStatus', {})
      if (!result.ok) return
      const { connected, port, busy } = result.value
      set({ device: { link: connected ? 'connected' : 'disconnected', busy, ...(port !== undefined ? { port } : {}) } })
    },

    async extendCardRead() {
      const result = await bridge.call('extendCardRead', {})
      return result.ok
    },
  })
