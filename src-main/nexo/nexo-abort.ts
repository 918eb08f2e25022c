/**
 * Who may stop a nexo payment, and how a refused Abort is told. An Abort stops only a payment the
 * same POS started: the same integrator token (the caller, whatever SaleID it writes) and the same
 * SaleID. Another token's Abort is refused, even with the right SaleID and ServiceID: a SaleID is a
 * name the POS writes in its header, the token is what the agent checked.
 *
 * nexo gives Abort no response message. A request the POI cannot act on is answered, as nexo
 * terminals do, with an EventNotification whose EventToNotify is `Reject`, the reason in
 * EventDetails and the refused message in RejectedMessage (Base64), sent in a SaleToPOIRequest
 * (nexo Retailer Protocol, EventNotification; the form Adyen's Terminal API documents for rejected
 * requests, and its libraries read as `TerminalApiResponse.SaleToPOIRequest`).
 */
import { additionalResponse, type MessageHeader } from './nexo-messages'

/**
 * The token that started each payment still waiting at the counter, by its nexo reference. Only a
 * payment the agent is still waiting on can be stopped, and none waits across a restart (recovery
 * ends a payment the restart interrupted), so this is kept in memory, for the payments of this run.
 */
export class PaymentStarters {
  private readonly byReference = new Map<string, string>()

  /** Runs `pay` as `tokenId`'s payment of `reference`: the first caller of a reference owns it until its call ends. */
  async whilePaying<T>(reference: string, tokenId: string, pay: () => Promise<T>): Promise<T> {
    if (this.byReference.has(reference)) return pay()
    this.byReference.set(reference, tokenId)
    try {
      return await pay()
    } finally {
      this.byReference.delete(reference)
    }
  }

  /** The token that started the payment of `reference`, while it is waited on. */
  starterOf(reference: string): string | undefined {
    return this.byReference.get(reference)
  }
}

/** A nexo EventNotification rejecting `message` (the one `header` heads), with the reason in plain words. */
export function rejection(
  header: MessageHeader,
  poiId: string,
  reason: string,
  message: unknown,
  now: Date,
): { SaleToPOIRequest: Record<string, unknown> } {
  return {
    SaleToPOIRequest: {
      MessageHeader: {
        MessageClass: 'Event',
        MessageCategory: 'Event',
        MessageType: 'Notification',
        SaleID: header.SaleID,
        ServiceID: header.ServiceID,
        POIID: header.POIID ?? poiId,
        ...(header.ProtocolVersion ? { ProtocolVersion: header.ProtocolVersion } : {}),
      },
      EventNotification: {
        TimeStamp: now.toISOString(),
        EventToNotify: 'Reject',
        EventDetails: additionalResponse({ message: reason }),
        RejectedMessage: Buffer.from(JSON.stringify(message)).toString('base64'),
      },
    },
  }
}
