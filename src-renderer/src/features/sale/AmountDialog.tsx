/** A large amount (above appInfo.saleLimits.confirmAboveMinor): the cashier confirms it before the card is asked for. */
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { moneyText } from '../../components/money-text'
import { usePos } from '../../store'

export function AmountDialog({ amountMinor, currency }: { amountMinor: number; currency: string }) {
  const busy = usePos((s) => s.starting)
  const confirmAmount = usePos((s) => s.confirmAmount)
  const amount = moneyText(amountMinor, currency)
  return (
    <ConfirmDialog
      title={`Charge ${amount}?`}
      confirmLabel={`Charge ${amount}`}
      cancelLabel="No, change the amount"
      busy={busy}
      testId="amount-dialog"
      onConfirm={() => void confirmAmount(true)}
      onCancel={() => void confirmAmount(false)}
    >
      <p>This is a large amount. Check it with the customer before the card is asked for.</p>
    </ConfirmDialog>
  )
}
