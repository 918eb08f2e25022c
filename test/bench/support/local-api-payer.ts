/**
 * The local API POS that bench:nexo and bench:zvt measure their protocol against: a new amount for each
 * payment, POST startSale, and the sale's final event read from one event stream for the run. One copy,
 * so that both benches compare with the very same baseline.
 */
import type { PosEvent, SaleView } from '../../../src-shared/contract'

const FINAL = new Set(['approved', 'declined', 'abandoned', 'reversalPending', 'reversed', 'storedOffline'])

export interface LocalApiPayer {
  /** A cent more than the last payment's amount, skipping cents the training host declines. */
  nextAmount(): number
  /** One approved payment through the local API; its time in ms from POST to the final event. */
  pay(): Promise<number>
}

export async function openLocalApiPayer(localUrl: string, token: string): Promise<LocalApiPayer> {
  // A new amount for each payment (the same card for the same amount would be asked about as a
  // duplicate), a cent apart and under the confirmation threshold; never cents the training host
  // declines (05 and 51, docs/gateway.md).
  let amountCents = 100
  const nextAmount = (): number => {
    do amountCents += 1
    while (amountCents % 100 === 5 || amountCents % 100 === 51)
    return amountCents
  }

  // The POS learns how its sale ended from the event stream (GET /v1/events), read as it comes.
  const finalSales = new Map<number, (sale: SaleView) => void>()
  const stream = await fetch(`${localUrl}/v1/events`, { headers: { authorization: `Bearer ${token}` } })
  void (async () => {
    const decoder = new TextDecoder()
    let buffer = ''
    for await (const chunk of stream.body!) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true })
      let end: number
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        const data = block.split('\n').find((line) => line.startsWith('data:'))
        if (data === undefined) continue
        const event = JSON.parse(data.slice(5)) as PosEvent
        if (event.type === 'sale' && FINAL.has(event.sale.state)) finalSales.get(event.sale.amountMinor)?.(event.sale)
      }
    }
  })().catch(() => undefined)

  async function pay(): Promise<number> {
    const amountMinor = nextAmount()
    const started = performance.now()
    const final = new Promise<SaleView>((resolve) => finalSales.set(amountMinor, resolve))
    const answer = await fetch(`${localUrl}/v1/ops/startSale`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amountMinor, reference: `bench-${amountMinor}` }),
    })
    if (!answer.ok) throw new Error(`startSale: ${answer.status} ${await answer.text()}`)
    const sale = await final
    finalSales.delete(amountMinor)
    if (sale.state !== 'approved') throw new Error(`local API payment ended ${sale.state}`)
    return performance.now() - started
  }

  return { nextAmount, pay }
}
