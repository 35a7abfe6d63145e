import { Type } from '@sinclair/typebox'
import { Instant, Id, Text, Nullable, Open, OneOf } from './schema.js'

/** MED (docs/gateway.md §2.10), owned by MedService. */

export const MED_STATUSES = ['OPEN', 'RECEIVED', 'CANCELLED', 'ANALYZED'] as const
export type MedStatus = typeof MED_STATUSES[number]

const Bank = Open({ ispb: Text, name: Text })

export const MedSchema = Open({
  id: Id,
  accountId: Id,
  endToEnd: Text,
  status: OneOf(MED_STATUSES),
  reason: OneOf(['REFUND_REQUEST', 'REFUND_CANCELLATION']),
  cause: Nullable(Text),
  description: Nullable(Text),
  analysisResult: Nullable(OneOf(['APPROVED', 'REJECTED'])),
  analysisDetails: Nullable(Text),
  requestingBank: Bank,
  contestedBank: Bank,
  originalTransaction: Nullable(Open({ amount: Type.Number(), type: Text, transactionType: Text, name: Text, document: Text, dateTime: Instant })),
  isReconciled: Type.Boolean(),
  originalTransactionId: Nullable(Id),
  /** Sandbox bookkeeping: the received payment disputed and, once approved, the devolução that returned it. */
  originalTransactionUuid: Type.Optional(Text),
  refundTransactionId: Type.Optional(Nullable(Text)),
  /**
   * The receiving account's defence (Efí's POST /v2/gn/infracoes/:id/defesa, docs/efi.md): it accepted
   * the claim (the devolução ran) or contested it, once, with its justification.
   */
  defence: Type.Optional(Open({ analysis: OneOf(['ACCEPTED', 'CONTESTED']), justification: Text, at: Instant })),
  createdAt: Instant,
  updatedAt: Instant,
})
