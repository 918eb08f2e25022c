/** Types every slice shares. The slices themselves are combined in pos-store.ts. */
import type { StateCreator } from 'zustand/vanilla'
import type { RendererBridge } from '../bridge'
import type { AppSlice } from './slices/app/app-slice'
import type { DeviceSlice } from './slices/device/device-slice'
import type { QueueSlice } from './slices/queue/queue-slice'
import type { SaleSlice } from './slices/sale/sale-slice'
import type { SalesSlice } from './slices/sales/sales-slice'
import type { TipsSlice } from './slices/tips/tips-slice'
import type { TokensSlice } from './slices/tokens/tokens-slice'
import type { ReceiptsSlice } from './slices/receipts/receipts-slice'
import type { OperatorSlice } from './slices/operator/operator-slice'
import type { ReturnsSlice } from './slices/returns/returns-slice'
import type { StaffSlice } from './slices/staff/staff-slice'

export const SCREENS = ['sale', 'transactions', 'tips', 'closeOfDay', 'queue', 'device', 'settings', 'staff'] as const
export type Screen = (typeof SCREENS)[number]

/** What the store needs from outside: the bridge and a clock (injected so tests control time). */
export interface StoreDeps {
  bridge: RendererBridge
  now: () => number
}

/** A one-line message after an action, shown next to the control that caused it. */
export interface Notice {
  /** ok: done as asked; info: nothing to do; warn: not done yet, nothing lost; error: needs someone. */
  tone: 'ok' | 'info' | 'warn' | 'error'
  text: string
}

export type PosState = AppSlice &
  SaleSlice &
  SalesSlice &
  ReturnsSlice &
  TipsSlice &
  QueueSlice &
  DeviceSlice &
  TokensSlice &
  ReceiptsSlice &
  OperatorSlice &
  StaffSlice

export type SliceCreator<T> = (deps: StoreDeps) => StateCreator<PosState, [], [], T>
