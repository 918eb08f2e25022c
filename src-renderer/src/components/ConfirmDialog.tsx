/**
 * A modal question with two answers. The safe answer gets the focus, Escape picks it, focus stays
 * inside while it is open and goes back where it was after. Rendered over the page (a portal), which
 * is inert meanwhile.
 */
import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import { useDialogFocus } from './use-dialog-focus'

export interface ConfirmDialogProps {
  title: string
  children?: ReactNode
  confirmLabel: string
  cancelLabel: string
  busy?: boolean
  testId?: string
  /**
   * The confirming answer takes the focus instead of the safe one: only where the words recommend it
   * and it is the answer that costs the customer nothing (a charge whose first try was reversed).
   */
  focusConfirm?: boolean
  onConfirm(): void
  onCancel(): void
}

export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  cancelLabel,
  busy = false,
  testId,
  focusConfirm = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const titleId = useId()
  const bodyId = useId()
  const busyId = useId()
  const dialogRef = useRef<HTMLDivElement>(null)
  const cancelRef = useRef<HTMLButtonElement>(null)
  const confirmRef = useRef<HTMLButtonElement>(null)
  useDialogFocus(dialogRef, focusConfirm ? confirmRef : cancelRef)

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Escape') return
    event.preventDefault()
    event.stopPropagation()
    if (!busy) onCancel()
  }

  return createPortal(
    <div className="dialog-backdrop">
      <div
        ref={dialogRef}
        className="dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={bodyId}
        data-testid={testId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId} className="dialog-title">
          {title}
        </h2>
        <div id={bodyId} className="dialog-body">
          {children}
        </div>
        {busy && (
          <p id={busyId} className="why-disabled" role="status">
            Waiting for the answer…
          </p>
        )}
        <div className="dialog-actions">
          <button
            ref={cancelRef}
            type="button"
            className="button button-large"
            disabled={busy}
            aria-describedby={busy ? busyId : undefined}
            onClick={onCancel}
          >
            {cancelLabel}
          </button>
          <button
            ref={confirmRef}
            type="button"
            className="button button-large button-primary"
            disabled={busy}
            aria-describedby={busy ? busyId : undefined}
            onClick={onConfirm}
          >
            {confirmLabel}
          </button>
        </div>
      </div>
    </div>,
    document.body,
  )
}
