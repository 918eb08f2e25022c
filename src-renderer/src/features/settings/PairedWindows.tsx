/**
 * Settings → Windows: the browser windows paired with this terminal (each opened once from a launch
 * link, and reconnecting by itself after the agent restarts), what opened each and when it was last
 * used, and closing one for good (a lost tablet, a window someone else opened). From here, too, a new
 * customer display or another cashier window is opened: a closed tab needs no one with a shell.
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
  const [opened, setOpened] = useState<string | null>(null)
  const open = async (view: 'cashier' | 'customer') => {
    const url = await store.getState().openWindow(view)
    if (!url) return
    // Each kind of window has its own session in this browser: a customer display opened here leaves
    // this cashier window signed in. A display gets a window of its own, to move to the customer's
    // screen; another cashier window replaces a lost tab. Where the browser blocks it, the link is shown.
    const tab = view === 'customer' ? window.open(url, '_blank', 'popup,width=800,height=480') : window.open(url, '_blank')
    if (tab) tab.opener = null
    setOpened(tab ? null : url)
  }

  useEffect(() => {
    void store.getState().refreshWindows()
  }, [store])

  return (
    <section className="tokens" aria-labelledby={titleId} data-testid="paired-windows">
      <h3 id={titleId}>Windows</h3>
      <p className="field-message">Browser windows opened from this terminal&apos;s link. Close one that should no longer be used.</p>
      <div className="form-actions">
        <button type="button" className="button" data-testid="open-customer-display" disabled={busy} onClick={() => void open('customer')}>
          Open a customer display
        </button>
        <button type="button" className="button" data-testid="open-cashier-window" disabled={busy} onClick={() => void open('cashier')}>
          Open another cashier window
        </button>
      </div>
      {opened && (
        <p className="field-message" data-testid="opened-link">
          This browser did not open a new window. Open this link once, on the screen it is for; it works for ten minutes:{' '}
          <span className="token-text">{opened}</span>
        </p>
      )}
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
