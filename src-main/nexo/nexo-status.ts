/**
 * A TransactionStatus answer that repeats an earlier response: the Payment or Reversal response the
 * POS lost, with the header it would have had, in RepeatedMessageResponse (docs/nexo.md,
 * "TransactionStatus").
 */
import { success, type MessageHeader } from './nexo-messages'

export function repeatedStatus(
  header: MessageHeader,
  poiId: string,
  category: 'Payment' | 'Reversal',
  serviceId: string,
  saleId: string,
  body: { Payment?: Record<string, unknown>; Reversal?: Record<string, unknown> },
): Record<string, unknown> {
  const repeated = body.Payment ?? body.Reversal!
  return {
    Response: success(),
    MessageReference: { MessageCategory: category, ServiceID: serviceId, SaleID: saleId },
    RepeatedMessageResponse: {
      MessageHeader: {
        MessageClass: 'Service',
        MessageCategory: category,
        MessageType: 'Response',
        ServiceID: serviceId,
        SaleID: saleId,
        POIID: header.POIID ?? poiId,
        ...(header.ProtocolVersion ? { ProtocolVersion: header.ProtocolVersion } : {}),
      },
      RepeatedResponseMessageBody: { [`${category}Response`]: repeated },
    },
  }
}
