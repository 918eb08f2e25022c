/** Renders the whole cashier app over a FakeBridge, loaded and connected, with a controllable clock. */
import { act, cleanup, fireEvent, render, type RenderResult } from '@testing-library/react'
import { afterEach } from 'vitest'
import { App } from '../../src-renderer/src/App'
import { connectStore, createPosStore, type PosStore, type Screen } from '../../src-renderer/src/store'
import { FakeBridge } from './fake-bridge'

afterEach(() => {
  cleanup()
})

export interface Clock {
  now: number
  (): number
}

export function makeClock(start = 1_700_000_000_000): Clock {
  const clock = (() => clock.now) as Clock
  clock.now = start
  return clock
}

export interface Harness {
  bridge: FakeBridge
  store: PosStore
  clock: Clock
  view: RenderResult
  emit(event: Parameters<FakeBridge['emit']>[0]): void
}

export async function renderApp(bridge = new FakeBridge(), options: { screen?: Screen; clock?: Clock } = {}): Promise<Harness> {
  const clock = options.clock ?? makeClock()
  const store = createPosStore({ bridge, now: clock })
  connectStore(store)
  await act(() => store.getState().load())
  if (options.screen) store.getState().navigate(options.screen)
  const view = render(<App store={store} />)
  await act(async () => {})
  return {
    bridge,
    store,
    clock,
    view,
    emit: (event) => act(() => bridge.emit(event)),
  }
}

/** Types into a controlled text field one character at a time, as a keyboard would. */
export function typeChars(input: HTMLInputElement, text: string): void {
  for (const ch of text) fireEvent.change(input, { target: { value: input.value + ch } })
}
