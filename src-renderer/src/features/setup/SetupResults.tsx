/** What setup saved and what the checks found, each problem with what to do. */
import type { SetupAnswer } from '../../../../src-shared/setup-form'

const LEVEL_WORDS = { ok: 'Good', warn: 'Check', fail: 'Problem' } as const

export function SetupResults({ answer }: { answer: Extract<SetupAnswer, { ok: true }> }) {
  return (
    <section className="setup-results" aria-labelledby="setup-results-title">
      <h2 id="setup-results-title">Saved. Checking the terminal</h2>
      <p>
        The signing key is stored in this computer's keychain. Its check value is <strong>{answer.keyCheckValue}</strong>: it must match the
        one your acquirer gave you.
      </p>
      <ul className="setup-checks">
        {answer.checks.map((check, index) => (
          <li key={index} className={`setup-check setup-check-${check.level}`}>
            <strong>
              {LEVEL_WORDS[check.level]}: {check.area}.
            </strong>{' '}
            {check.text}.{check.level !== 'ok' && check.fix ? ` What to do: ${check.fix}.` : ''}
          </li>
        ))}
      </ul>
      {answer.ready ? (
        <p className="setup-verdict setup-check-ok">
          This terminal is ready. Close this page, stop the setup program, and start the terminal with: <code>{answer.startCommand}</code>
        </p>
      ) : (
        <p className="setup-verdict setup-check-fail">
          This terminal is not ready yet. Fix each problem above, then press Save and check again.
        </p>
      )}
    </section>
  )
}
