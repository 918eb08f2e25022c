/**
 * The one modal dialog of the screens: drawn over the page (a portal, the page inert meanwhile), the
 * focus taken in and kept there, and given back after (use-dialog-focus.ts), named by its title, and
 * Escape doing what the dialog says (or nothing, where there is no way back: a token shown once).
 * Every question, panel and view over the screens is one of these, so they all behave alike for a
 * keypad, a screen reader and a hurried cashier. (WAI-ARIA Authoring Practices, "Dialog (Modal)".)
 */
import { createContext, useContext, useId, useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react'
import { createPortal } from 'react-dom'
import { useDialogFocus } from './use-dialog-focus'

export interface DialogProps {
  /** `alertdialog` for a question that stops the work until it is answered; `dialog` otherwise. */
  role?: 'dialog' | 'alertdialog'
  /** The element that describes the dialog (its question's words), read after the title. */
  describedBy?: string | undefined
  className?: string
  backdropClassName?: string
  testId?: string
  /** Where the focus goes when it opens; its first control otherwise. */
  initialFocus?: RefObject<HTMLElement | null>
  /** What Escape does; without it, Escape does nothing (and does not reach the page behind). */
  onEscape?: (() => void) | undefined
  /** The dialog's own element, for a dialog that takes the focus back itself while its content changes. */
  dialogRef?: RefObject<HTMLDivElement | null>
  children: ReactNode
}

const TitleId = createContext<string | undefined>(undefined)

export function Dialog({
  role = 'dialog',
  describedBy,
  className,
  backdropClassName,
  testId,
  initialFocus,
  onEscape,
  dialogRef,
  children,
}: DialogProps) {
  const titleId = useId()
  const ownRef = useRef<HTMLDivElement>(null)
  const ref = dialogRef ?? ownRef
  useDialogFocus(ref, initialFocus)
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Escape') return
    event.preventDefault()
    event.stopPropagation()
    onEscape?.()
  }
  return createPortal(
    <div className={backdropClassName ? `dialog-backdrop ${backdropClassName}` : 'dialog-backdrop'}>
      <div
        ref={ref}
        className={className ? `dialog ${className}` : 'dialog'}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={describedBy}
        data-testid={testId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <TitleId.Provider value={titleId}>{children}</TitleId.Provider>
      </div>
    </div>,
    document.body,
  )
}

/** The dialog's title: its name for a screen reader, wherever the dialog lays it out. */
export function DialogTitle({ children }: { children: ReactNode }) {
  return (
    <h2 id={useContext(TitleId)} className="dialog-title">
      {children}
    </h2>
  )
}
