/**
 * Finding sales in the real journal: by day or batch, narrowed by amount, the card's last four digits,
 * the POS's reference and the operator, each alone and together; and always through an index.
 */
import { describe, expect, it } from 'vitest'
import { saleSearchQuery, type SaleSearch } from '../../../src-main/journal/journal-store'
import { useTempJournals } from './journal-harness'
import { NEW_SALE, TERMINAL, openJournal } from './store-harness'

describe('searching the journal', () => {
  const temp = useTempJournals()

  async function journalWithSales() {
    const opened = await openJournal(temp, temp.path())
    const { store } = opened
    const visa = { maskedPan: '476173******0119', brand: 'VISA' }
    const master = { maskedPan: '541333******0434', brand: 'MASTERCARD' }
    const a = store.createSale(TERMINAL, { ...NEW_SALE, ...visa, amountMinor: 1250, operatorId: '7', businessDay: '2026-11-20' })
    const b = store.createSale(TERMINAL, {
      ...NEW_SALE,
      ...master,
      amountMinor: 1250,
      operatorId: '8',
      reference: 'ECR-1',
      businessDay: '2026-11-20',
    })
    store.batches.close({ saleIds: [a.id, b.id], closedAt: 1_000, businessDay: '2026-11-20', managerOverride: false, summary: '{}' })
    const c = store.createSale(TERMINAL, {
      ...NEW_SALE,
      ...visa,
      amountMinor: 3000,
      operatorId: '8',
      reference: 'ECR-2',
      businessDay: '2026-11-21',
    })
    // A sale whose card was never read has no masked PAN: no last four to match.
    const d = store.createSale(TERMINAL, { ...NEW_SALE, amountMinor: 1250, businessDay: '2026-11-21' })
    // A tip: the amount the customer saw charged finds it too.
    const tipped = store.get(c.id)!
    store.apply({ event: { type: 'tip' }, next: { ...tipped, tipMinor: 500 }, expectedState: tipped.state })
    const ids = (search: SaleSearch) => store.searchSales(search).map((s) => s.id)
    return { ...opened, a: a.id, b: b.id, c: c.id, d: d.id, ids }
  }

  it('each filter alone', async () => {
    const { a, b, c, d, ids } = await journalWithSales()
    expect(ids({ batch: 'open' })).toEqual([c, d])
    expect(ids({ batch: 1 })).toEqual([a, b])
    expect(ids({ day: '2026-11-20' })).toEqual([a, b])
    expect(ids({ amountMinor: 1250 })).toEqual([a, b, d])
    expect(ids({ amountMinor: 3500 })).toEqual([c])
    expect(ids({ amountMinor: 3000 })).toEqual([c])
    expect(ids({ last4: '0119' })).toEqual([a, c])
    expect(ids({ last4: '0434' })).toEqual([b])
    expect(ids({ reference: 'ECR-2' })).toEqual([c])
    expect(ids({ operatorId: '8' })).toEqual([b, c])
    expect(ids({ last4: '9999' })).toEqual([])
  })

  it('filters together: all of them must match', async () => {
    const { a, b, c, d, ids } = await journalWithSales()
    expect(ids({ batch: 'open', amountMinor: 1250 })).toEqual([d])
    expect(ids({ batch: 1, last4: '0119' })).toEqual([a])
    expect(ids({ day: '2026-11-21', last4: '0119', operatorId: '8' })).toEqual([c])
    expect(ids({ day: '2026-11-20', amountMinor: 1250, operatorId: '8', reference: 'ECR-1', last4: '0434', batch: 1 })).toEqual([b])
    expect(ids({ day: '2026-11-20', batch: 'open' })).toEqual([])
    expect(ids({ batch: 1, reference: 'ECR-2' })).toEqual([])
  })

  it('reads through an index, never a scan of every sale', async () => {
    const { db } = await journalWithSales()
    const plan = (search: SaleSearch) => {
      const { sql, params } = saleSearchQuery(search)
      const rows = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as Array<{ detail: string }>
      return rows.map((r) => r.detail).join('; ')
    }
    const everything = { amountMinor: 1250, last4: '0119', operatorId: '8' }
    for (const search of [{ batch: 'open' as const }, { batch: 1 }, { batch: 'open' as const, ...everything }, { batch: 2, ...everything }])
      expect(plan(search)).toMatch(/SEARCH sale USING INDEX sale_by_batch/)
    for (const search of [{ day: '2026-11-21' }, { day: '2026-11-21', ...everything }])
      expect(plan(search)).toMatch(/SEARCH sale USING INDEX sale_by_day/)
    expect(plan({ batch: 'open', reference: 'ECR-2', ...everything })).toMatch(
      /SEARCH sale USING INDEX sqlite_autoindex_sale_\d \(reference=\?\)/,
    )
    for (const search of [{ batch: 'open' as const, ...everything }, { day: '2026-11-21', last4: '0119' }, { reference: 'X' }])
      expect(plan(search)).not.toMatch(/SCAN sale\b/)
  })
})
