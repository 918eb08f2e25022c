/** A charged chip sale (signed for) and a store header: the receipt tests build, print and mail them. */
import type { SaleView } from '../../src-shared/contract'
import type { ReceiptMerchant } from '../../src-shared/receipt'

export const MERCHANT: ReceiptMerchant = {
  name: 'Corner Cafe',
  addressLines: ['12 Main Street', 'Springfield'],
  merchantId: 'M-CORNER',
  terminalId: 'T-0001',
  training: false,
}

const createdAt = new Date(2026, 10, 24, 14, 5).getTime()

export const CHIP_SALE: SaleView = {
  id: 'T-0001-00000042',
  state: 'approved',
  amountMinor: 123456,
  currency: 'USD',
  tipMinor: 0,
  tipState: 'none',
  autoCapture: true,
  offline: false,
  authCode: 'A1B2C3',
  svcTransID: 'SVC-9',
  maskedPan: '476173******0010',
  brand: 'VISA',
  readMethod: 'chip',
  applicationId: 'A0000000031010',
  applicationLabel: 'VISA CREDIT',
  tvr: '0000008000',
  tsi: 'E800',
  cvm: 'signature',
  operatorId: '7',
  createdAt,
  updatedAt: createdAt,
  businessDay: '2026-11-24',
}
