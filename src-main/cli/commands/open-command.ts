/**
 * `pos-agent open [--customer]`: a new one-time link to a cashier window or a customer display of the
 * agent running on this computer (`serve`), for the machine's owner when a tab was closed and no
 * cashier window is left to open one from. It asks the running agent with the installation token
 * (`<data folder>/api-token`, readable only by the owner) at the address `serve` noted in the data
 * folder (`serving-url`), and prints the link: it opens one window, once, within ten minutes.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Runtime } from '../../app'
import { EXIT } from '../exit-codes'

/** Where `serve` notes the address it serves windows at, while it runs. */
export const SERVING_URL_FILE = 'serving-url'

export async function openCommand(runtime: Runtime, view: 'cashier' | 'customer'): Promise<number> {
  let origin: string
  let token: string
  try {
    origin = readFileSync(join(runtime.dataDir, SERVING_URL_FILE), 'utf8').trim()
    token = readFileSync(join(runtime.dataDir, 'api-token'), 'utf8').trim()
  } catch {
    console.error(`no agent is serving windows from ${runtime.dataDir}: start it with \`pos-agent serve\``)
    return EXIT.failure
  }
  try {
    const response = await fetch(`${origin}/v1/launch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ view }),
      signal: AbortSignal.timeout(10_000),
    })
    const answer = (await response.json()) as { ok: boolean; value?: { url: string }; error?: { words?: string } }
    if (!answer.ok || !answer.value) {
      console.error(`the agent did not give a link: ${answer.error?.words ?? `HTTP ${response.status}`}`)
      return EXIT.failure
    }
    console.log(
      `open this link once, in the browser of the screen it is for (${view === 'customer' ? 'a customer display' : 'a cashier window'}):`,
    )
    console.log(answer.value.url)
    return EXIT.ok
  } catch (error) {
    console.error(
      `the agent at ${origin} did not answer (${error instanceof Error ? error.message : String(error)}): is \`pos-agent serve\` running?`,
    )
    return EXIT.failure
  }
}
