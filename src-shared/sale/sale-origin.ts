/** Who rang a sale up: the cashier at this terminal's screen, or the POS through the local API. */
export const SALE_ORIGINS = ['counter', 'pos'] as const
export type SaleOrigin = (typeof SALE_ORIGINS)[number]
