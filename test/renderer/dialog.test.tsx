/**
 * The one dialog (src-renderer/src/components/Dialog.tsx) every question and panel over the screens
 * is: named by its title, the focus taken in and given back to the opener, Escape doing what the
 * dialog says or nothing, and the page behind inert while it is open.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { useRef, useState } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Dialog, DialogTitle } from '../../src-renderer/src/components/Dialog'

function Opener({ onEscape }: { onEscape?: () => void }) {
  const [open, setOpen] = useState(false)
  const okRef = useRef<HTMLButtonElement>(null)
  return (
    <main>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      {open && (
        <Dialog
          testId="the-dialog"
          initialFocus={okRef}
          onEscape={
            onEscape &&
            (() => {
              onEscape()
              setOpen(false)
            })
          }
        >
          <DialogTitle>Void of USD 12.34</DialogTitle>
          <button type="button">Back</button>
          <button type="button" ref={okRef} onClick={() => setOpen(false)}>
            Done
          </button>
        </Dialog>
      )}
    </main>
  )
}

afterEach(cleanup)

describe('the one dialog', () => {
  it('is named by its title, takes the focus where it says, and gives it back to the opener; Escape does what it says', () => {
    const escaped = vi.fn()
    render(<Opener onEscape={escaped} />)
    const opener = screen.getByRole('button', { name: 'Open' })
    opener.focus()
    fireEvent.click(opener)
    const dialog = screen.getByRole('dialog', { name: 'Void of USD 12.34' })
    expect(dialog.getAttribute('aria-modal')).toBe('true')
    expect(document.activeElement?.textContent).toBe('Done')
    // The page behind is inert while it is open.
    expect(opener.closest('[inert]')).not.toBeNull()
    fireEvent.keyDown(dialog, { key: 'Escape' })
    expect(escaped).toHaveBeenCalledTimes(1)
    expect(screen.queryByTestId('the-dialog')).toBeNull()
    expect(document.activeElement).toBe(opener)
    expect(opener.closest('[inert]')).toBeNull()
  })

  it('without onEscape, Escape leaves it open (a token shown once cannot be shown again)', () => {
    render(<Opener />)
    fireEvent.click(screen.getByRole('button', { name: 'Open' }))
    const dialog = screen.getByTestId('the-dialog')
    fireEvent.keyDown(dialog, { key: 'Escape' })
    expect(screen.getByTestId('the-dialog')).toBe(dialog)
    fireEvent.click(screen.getByRole('button', { name: 'Done' }))
    expect(screen.queryByTestId('the-dialog')).toBeNull()
  })
})
