/**
 * awaitingConfirmation: the same card and amount as a recent sale. The cashier charges again or stops.
 * When the recent one did not go through and its charge is being (or was) reversed, the customer has
 * not paid: the dialog says so and offers charging again first.
 */
import type { SaleView } from '../../../../src-shared/contract'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { moneyText } from '../../components/money-text'
import { earlierChargeReversed, usePos } from '../../store'

export function DuplicateDialog({ sale }: { sale: SaleView }) {
  const busy = usePos((s) => s.saleActionBusy)
  const confirmDuplicate = usePos((s) => s.confirmDuplicate)
  const reversed = usePos((s) => earlierChargeReversed(s, sale))
  const card = sale.maskedPan ? ` on ${[sale.brand, sale.maskedPan].filter(Boolean).join(' ')}` : ''
  const amount = moneyText(sale.amountMinor, sale.currency)
  return (
    <ConfirmDialog
      title={reversed ? 'The first charge is being reversed — charge again' : 'Same card and amount as a recent sale — charge again?'}
      confirmLabel="Charge again"
      cancelLabel="Stop, do not charge"
      busy={busy}
      testId="duplicate-dialog"
      // The first try was reversed: the customer has not paid, and the words recommend charging again.
      focusConfirm={reversed}
      onConfirm={() => void confirmDuplicate(true)}
      onCancel={() => void confirmDuplicate(false)}
    >
      {reversed ? (
        <p data-testid="duplicate-words">
          The first try of {amount}
          {card} did not go through: its charge is being reversed, so the customer does not pay for it. Charge again to take the payment.
        </p>
      ) : (
        <p data-testid="duplicate-words">
          {amount}
          {card}. Ask the customer whether this is a second purchase. If not, stop: nothing more is charged.
        </p>
      )}
    </ConfirmDialog>
  )
}
