/**
 * Settings → Windows: the browser windows paired with this terminal (each opened once from a launch
 * link, and reconnecting by itself after the agent restarts), what opened each and when it was last
 * used, and closing one for good (a lost tablet, a window someone else opened).
 */
import { useEffect, useId, useState } from 'react'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { dateTimeText } from '../../components/time-text'
import { usePos, usePosStore } from '../../store'
import type { PairedWindowView } from '../../../../src-shared/contract'

const KIND_WORDS = { cashier: 'Cashier window', customer: 'Customer display' } as const

export function PairedWindows() {
  const store = usePosStore()
  const titleId = useId()
  const windows = usePos((s) => s.pairedWindows)
  const busy = usePos((s) => s.tokenBusy)
  const [closing, setClosing] = useState<PairedWindowView | null>(null)

  useEffect(() => {
    void store.getState().refreshWindows()
  }, [store])

  return (
    <section className="tokens" aria-labelledby={titleId} data-testid="paired-windows">
      <h3 id={titleId}>Windows</h3>
      <p className="field-message">Browser windows opened from this terminal&apos;s link. Close one that should no longer be used.</p>
      {windows.length === 0 ? (
        <p data-testid="no-windows">No browser window is paired with this terminal.</p>
      ) : (
        <ul className="token-list">
          {windows.map((window) => (
            <li key={window.id} className="token-row" data-testid={`window-${window.id}`}>
              <span className="token-name">
                {KIND_WORDS[window.view]}
                {window.current ? ' (this one)' : ''}
              </span>
              <span className="token-when">
                Opened by {window.openedBy} on {dateTimeText(window.createdAt)} · last used {dateTimeText(window.lastSeenAt)}
              </span>
              {!window.current && (
                <button type="button" className="button" disabled={busy} onClick={() => setClosing(window)}>
                  Close this window
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {closing && (
        <ConfirmDialog
          title={`Close this ${KIND_WORDS[closing.view].toLowerCase()} for good?`}
          confirmLabel="Close it"
          cancelLabel="Keep it"
          busy={busy}
          testId="close-window-dialog"
          onConfirm={() => {
            const id = closing.id
            setClosing(null)
            void store.getState().revokeWindow(id)
          }}
          onCancel={() => setClosing(null)}
        >
          It will need a new link from this terminal to be used again.
        </ConfirmDialog>
      )}
    </section>
  )
}
