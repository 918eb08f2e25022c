/** awaitingConfirmation: the same card and amount as a recent sale. The cashier charges again or stops. */
import type { SaleView } from '../../../../src-shared/contract'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { moneyText } from '../../components/money-text'
import { usePos } from '../../store'

export function DuplicateDialog({ sale }: { sale: SaleView }) {
  const busy = usePos((s) => s.saleActionBusy)
  const confirmDuplicate = usePos((s) => s.confirmDuplicate)
  return (
    <ConfirmDialog
      title="Same card and amount as a recent sale — charge again?"
      confirmLabel="Charge again"
      cancelLabel="Stop, do not charge"
      busy={busy}
      testId="duplicate-dialog"
      onConfirm={() => void confirmDuplicate(true)}
      onCancel={() => void confirmDuplicate(false)}
    >
      <p>
        {moneyText(sale.amountMinor, sale.currency)}
        {sale.maskedPan ? ` on ${[sale.brand, sale.maskedPan].filter(Boolean).join(' ')}` : ''}. Ask the customer whether this is a second
        purchase. If not, stop: nothing more is charged.
      </p>
    </ConfirmDialog>
  )
}
