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
  createdAt: Instant,
  updatedAt: Instant,
})
