/** The setup page's two calls to the agent's setup server (same origin, its session cookie). */
import type { SetupAnswer, SetupForm, SetupState } from '../../../../src-shared/setup-form'

/** `/setup`: the address `pos-agent setup` opens. */
export function isSetupView(location: Pick<Location, 'pathname'>): boolean {
  return /^\/setup\/?$/.test(location.pathname)
}

export async function loadSetupState(): Promise<SetupState | undefined> {
  const response = await fetch('/setup/state', { credentials: 'same-origin' })
  return response.ok ? ((await response.json()) as SetupState) : undefined
}

export async function submitSetup(form: SetupForm): Promise<SetupAnswer> {
  try {
    const response = await fetch('/setup/submit', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(form),
    })
    return (await response.json()) as SetupAnswer
  } catch {
    return { ok: false, problems: { form: 'The setup program does not answer. Check that it is still running, then try again.' } }
  }
}
