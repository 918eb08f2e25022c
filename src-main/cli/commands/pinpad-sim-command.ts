/**
 * `pos-agent pinpad-sim --link <path> [--card <name>]`: a simulated NEO 2 PIN pad on a socat pty
 * pair, for manual testing. The agent (or any serial tool) opens `--link`; the PIN pad presents the
 * default card a moment after each Activate Transaction, and a card name typed on standard input
 * presents that card instead. Runs until SIGINT/SIGTERM, then removes the pty pair.
 */
import { createInterface } from 'node:readline'
import { DEFAULT_TRAINING_CARD, isTestCardName, startPtyPinpadSim, TEST_CARDS, TEST_CARD_NAMES } from '../../training'
import { EXIT } from '../exit-codes'

export interface PinpadSimFlags {
  link: string
  card?: string
  baudRate?: number
}

/** Human-paced timings: the cashier should see each prompt. */
const TRAINING_PACE = { autoPresentMs: 2_000, cardReadMs: 600, pinEntryMs: 1_500 }

export async function pinpadSimCommand(flags: PinpadSimFlags): Promise<number> {
  const card = flags.card ?? DEFAULT_TRAINING_CARD
  if (!isTestCardName(card)) throw new Error(`--card must be one of ${TEST_CARD_NAMES.join(', ')}; got "${card}"`)
  if (flags.baudRate !== undefined && (!Number.isInteger(flags.baudRate) || flags.baudRate <= 0))
    throw new Error(`--baud-rate must be a positive whole number, got ${flags.baudRate}`)
  const sim = await startPtyPinpadSim({
    link: flags.link,
    defaultCard: card,
    ...TRAINING_PACE,
    ...(flags.baudRate ? { baudRate: flags.baudRate } : {}),
  })
  console.log(`simulated NEO 2 PIN pad on ${sim.hostPath} (socat pid ${sim.socatPid})`)
  console.log(`default card: ${card}; type a card name and Enter to present it:`)
  for (const name of TEST_CARD_NAMES) console.log(`  ${name.padEnd(24)} ${TEST_CARDS[name].description}`)
  const input = process.stdin.isTTY ? createInterface({ input: process.stdin }) : undefined
  input?.on('line', (line) => {
    const name = line.trim()
    if (name === '') return
    if (!isTestCardName(name)) return console.log(`unknown card "${name}"`)
    sim.present(name)
    console.log(`presented ${name}`)
  })
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      resolve()
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  })
  input?.close()
  await sim.close()
  console.log('simulated PIN pad stopped')
  return EXIT.ok
}
