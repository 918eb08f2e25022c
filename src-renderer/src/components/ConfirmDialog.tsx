/**
 * A modal question with two answers (a Dialog). The safe answer gets the focus, Escape picks it,
 * focus stays inside while it is open and goes back where it was after.
 */
import { useId, useRef, type ReactNode } from 'react'
import { Dialog, DialogTitle } from './Dialog'

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
  const bodyId = useId()
  const busyId = useId()
  const cancelRef = useRef<HTMLButtonElement>(null)
  const confirmRef = useRef<HTMLButtonElement>(null)
  return (
    <Dialog
      role="alertdialog"
      describedBy={bodyId}
      testId={testId}
      initialFocus={focusConfirm ? confirmRef : cancelRef}
      onEscape={() => {
        if (!busy) onCancel()
      }}
    >
      <DialogTitle>{title}</DialogTitle>
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
    </Dialog>
  )
}
