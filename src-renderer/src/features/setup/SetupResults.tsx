/**
 * What setup saved and what the checks found: each result in plain words with what to do, and the
 * checks' technical words folded away under "Details for IT support".
 */
import type { SetupAnswer } from '../../../../src-shared/setup-form'

const LEVEL_WORDS = { ok: 'Good', warn: 'Check', fail: 'Problem' } as const

export function SetupResults({ answer }: { answer: Extract<SetupAnswer, { ok: true }> }) {
  return (
    <section className="setup-results" aria-labelledby="setup-results-title" data-testid="setup-results">
      <h2 id="setup-results-title">Saved. Checking the terminal</h2>
      <p>
        The signing key is stored in this computer's keychain. Its check value is <strong>{answer.keyCheckValue}</strong>: it must match the
        one your acquirer gave you.
      </p>
      <ul className="setup-checks">
        {answer.checks.map((check, index) => (
          <li
            key={index}
            className={`setup-check setup-check-${check.level}`}
            data-testid={`setup-check-${check.id}`}
            data-level={check.level}
          >
            <strong>
              {LEVEL_WORDS[check.level]}: {check.area}.
            </strong>{' '}
            {check.text}.{check.level !== 'ok' && check.fix ? ` What to do: ${check.fix}.` : ''}
            <details className="setup-check-detail">
              <summary>Details for IT support</summary>
              <span>{check.detail}</span>
            </details>
          </li>
        ))}
      </ul>
      {answer.ready ? (
        <p className="setup-verdict setup-check-ok" data-testid="setup-verdict">
          This terminal is ready. Close this page, stop the setup program, and start the terminal with: <code>{answer.startCommand}</code>
        </p>
      ) : (
        <p className="setup-verdict setup-check-fail" data-testid="setup-verdict">
          This terminal is not ready yet. Fix each problem above, then press Save and check again.
        </p>
      )}
    </section>
  )
}
