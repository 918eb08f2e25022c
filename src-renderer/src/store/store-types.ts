/** Types every slice shares. The slices themselves are combined in pos-store.ts. */
import type { StateCreator } from 'zustand/vanilla'
import type { RendererBridge } from '../bridge'
import type { AppSlice } from './app-slice'
import type { DeviceSlice } from './device-slice'
import type { QueueSlice } from './queue-slice'
import type { SaleSlice } from './sale-slice'
import type { SalesSlice } from './sales-slice'
import type { TipsSlice } from './tips-slice'
import type { TokensSlice } from './tokens-slice'
import type { ReceiptsSlice } from './receipts-slice'
import type { OperatorSlice } from './operator-slice'
import type { ReturnsSlice } from './returns-slice'
import type { StaffSlice } from './staff-slice'

export const SCREENS = ['sale', 'transactions', 'tips', 'closeOfDay', 'queue', 'device', 'settings', 'staff'] as const
export type Screen = (typeof SCREENS)[number]

/** What the store needs from outside: the bridge and a clock (injected so tests control time). */
export interface StoreDeps {
  bridge: RendererBridge
  now: () => number
}

/** A one-line message after an action, shown next to the control that caused it. */
export interface Notice {
  tone: 'ok' | 'error'
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
