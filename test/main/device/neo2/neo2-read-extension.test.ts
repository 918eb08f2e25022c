/**
 * More time at the card prompt (CardReader.extendRead) on the NEO 2 driver over the simulated PIN pad:
 * the prompt carries its end and the extensions left; an extension moves the end, is sent as a new
 * prompt, and the driver listens again (a second 02-40) when the reader's own wait ends before it;
 * at most CARD_READ_EXTENSION.times, and only while a card is awaited.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { CARD_READ_EXTENSION } from '../../../../src-main/device'
import type { DevicePrompt } from '../../../../src-shared/contract'
import type { MockRig } from './reader-harness'
import { mockRig, sale } from './reader-harness'

let rig: MockRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const activations = (r: MockRig) => r.sim.emulator.received.filter((c) => c.command === 0x02 && c.subCommand === 0x40).length
type Waiting = Extract<DevicePrompt, { type: 'waitingForCard' }>

describe('more time at the card prompt', () => {
  it('moves the end, says so, keeps listening past the first end, and reads the card then', async () => {
    rig = await mockRig()
    expect(rig.reader.extendRead()).toBeUndefined()
    const startedAt = Date.now()
    const reading = rig.reader.readCard(sale({ timeoutSeconds: 1 }))
    const first = (await rig.log.waitFor((e) => e.type === 'waitingForCard')) as Waiting
    expect(first.expiresAt).toBeGreaterThanOrEqual(startedAt + 1000)
    expect(first.extensionsLeft).toBe(CARD_READ_EXTENSION.times)

    const extended = rig.reader.extendRead()
    expect(extended).toEqual({
      expiresAt: first.expiresAt! + CARD_READ_EXTENSION.seconds * 1000,
      extensionsLeft: CARD_READ_EXTENSION.times - 1,
    })
    const prompts = rig.log.events.filter((e): e is Waiting => e.type === 'waitingForCard')
    expect(prompts.at(-1)).toMatchObject({ expiresAt: extended!.expiresAt, extensionsLeft: CARD_READ_EXTENSION.times - 1 })

    // The reader's own 1 s wait ends (08); the driver asks it to listen again rather than give up.
    await sleep(1_600)
    expect(activations(rig)).toBe(2)
    rig.sim.present('swipe-magstripe')
    expect((await reading).kind).toBe('card')
  })

  it('is bounded, and refused once the card prompt is over', async () => {
    rig = await mockRig()
    const reading = rig.reader.readCard(sale({ timeoutSeconds: 5 }))
    await rig.log.waitFor((e) => e.type === 'waitingForCard')
    for (let left = CARD_READ_EXTENSION.times - 1; left >= 0; left--) expect(rig.reader.extendRead()?.extensionsLeft).toBe(left)
    expect(rig.reader.extendRead()).toBeUndefined()
    await rig.reader.cancel()
    expect(await reading).toEqual({ kind: 'cancelled' })
    expect(rig.reader.extendRead()).toBeUndefined()
  })
})
