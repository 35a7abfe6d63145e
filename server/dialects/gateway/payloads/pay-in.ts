import { centsToNumber, centsToString } from '../../../domain/money.js'
import { maskDocument } from '../../../domain/documents.js'
import type { MedRecord } from '../../../store/state.js'
import type { MedEnvelope, ReceiveEnvelope, RefundInEnvelope, RefundOutEnvelope } from '../../../schemas/webhooks.js'

/**
 * Pure builders of the pay-in webhook payloads. `cash_in` carries the V2 RECEIVE envelope and
 * `refund_in` the V2 REFUND envelope (docs/gateway.md §6.3). The spec does not show `refund_out` nor the `med_*`
 * payloads: `refund_out` reuses the REFUND envelope seen from the receiving side (creditDebitType
 * CREDIT) and `med_*` carry the MED record of docs/gateway.md §2.10 in a `{ type: 'MED', data }` envelope.
 *
 * Failures are a sandbox extension of the V2 shape: `status` is `ERROR` and `errorCode` /
 * `errorMessage` say why (docs/gateway.md §3.1 says the webhook "carries errorCode and errorMessage"); on
 * success both are null, so a receiver can always read them. The payloads' types are their schemas'
 * (server/schemas/webhooks.ts).
 */
export interface Failure {
  code: string
  message: string
}

export interface ReceiveInput {
  /** Numeric id of the received payment (its transaction's seq). */
  id: number
  /** The charge's txid; null for an unsolicited PIX. */
  txId: string | null
  amountCents: number
  endToEndId: string
  debtor: { name: string, document: string }
  failure?: Failure
}

export function receiveEnvelope (input: ReceiveInput): ReceiveEnvelope {
  return {
    type: 'RECEIVE',
    data: {
      id: input.id,
      txId: input.txId,
      status: input.failure ? 'ERROR' : 'LIQUIDATED',
      payment: { amount: centsToString(input.amountCents), currency: 'BRL' },
      endToEndId: input.endToEndId,
      debtorAccount: { name: input.debtor.name, document: maskDocument(input.debtor.document) },
      errorCode: input.failure?.code ?? null,
      errorMessage: input.failure?.message ?? null,
    },
  }
}

export interface RefundInput {
  /** Numeric id of the original payment. */
  id: number
  txId: string | null
  /** Amount of the original payment. */
  originalAmountCents: number
  /** endToEndId of the original payment. */
  originalEndToEndId: string
  refund: {
    amountCents: number
    /** The refund's own id (rtrId, `D...`), what providerTransactionId reports. */
    endToEndId: string
    eventDate: string
    information: string
  }
  failure?: Failure
}

/** The REFUND data both sides share; `creditDebitType` tells which side this is. */
function refundData<D extends 'DEBIT' | 'CREDIT'> (input: RefundInput, creditDebitType: D): Omit<RefundInEnvelope['data'], 'creditDebitType'> & { creditDebitType: D } {
  return {
    id: input.id,
    txId: input.txId,
    status: input.failure ? 'ERROR' : 'REFUNDED',
    payment: { amount: centsToString(input.originalAmountCents), currency: 'BRL' },
    // Only the refund this event is about, so refunds[0].endToEndId correlates with providerTransactionId.
    refunds: [{
      status: input.failure ? 'ERROR' : 'LIQUIDATED',
      payment: { amount: centsToNumber(input.refund.amountCents), currency: 'BRL' },
      endToEndId: input.refund.endToEndId,
      eventDate: input.refund.eventDate,
      information: input.refund.information,
    }],
    endToEndId: input.originalEndToEndId,
    creditDebitType,
    errorCode: input.failure?.code ?? null,
    errorMessage: input.failure?.message ?? null,
  }
}

/** `refund_in`: this account returned (part of) a payment it had received. */
export function refundEnvelope (input: RefundInput): RefundInEnvelope {
  return { type: 'REFUND', data: refundData(input, 'DEBIT') }
}

/** `refund_out`: a payment this account had sent came (partly) back. */
export function refundOutEnvelope (input: RefundInput): RefundOutEnvelope {
  return { type: 'REFUND', data: refundData(input, 'CREDIT') }
}

/** The devolução an approved MED returned the money with. */
export type MedRefundSummary = NonNullable<MedEnvelope['data']['refund']>

/** The MED record as docs/gateway.md §2.10 lists it (the account id and other bookkeeping stay inside). */
export function medView (r: MedRecord) {
  return {
    id: r.id,
    endToEnd: r.endToEnd,
    status: r.status,
    reason: r.reason,
    cause: r.cause,
    description: r.description,
    analysisResult: r.analysisResult,
    analysisDetails: r.analysisDetails,
    requestingBank: { ...r.requestingBank },
    contestedBank: { ...r.contestedBank },
    originalTransaction: r.originalTransaction === null ? null : { ...r.originalTransaction },
    isReconciled: r.isReconciled,
    originalTransactionId: r.originalTransactionId,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  }
}

/**
 * `med_created`, `med_accepted`, `med_rejected`: the record after the change; an approval also
 * carries the devolução that returned the money (null when nothing was left to return).
 */
export function medEnvelope (record: MedRecord, refund?: MedRefundSummary | null): MedEnvelope {
  return {
    type: 'MED',
    data: {
      ...medView(record),
      ...(refund !== undefined ? { refund } : {}),
    },
  }
}
