/** The MED record of spec 2.10, as stored. Owned by the MED service. */
export type MedStatus = 'OPEN' | 'RECEIVED' | 'CANCELLED' | 'ANALYZED'

export interface MedRecord {
  id: number
  accountId: number
  endToEnd: string
  status: MedStatus
  reason: 'REFUND_REQUEST' | 'REFUND_CANCELLATION'
  cause: string | null
  description: string | null
  analysisResult: 'APPROVED' | 'REJECTED' | null
  analysisDetails: string | null
  requestingBank: { ispb: string, name: string }
  contestedBank: { ispb: string, name: string }
  originalTransaction: {
    amount: number
    type: string
    transactionType: string
    name: string
    document: string
    dateTime: string
  } | null
  isReconciled: boolean
  originalTransactionId: number | null
  /** Sandbox bookkeeping: the received payment disputed and, once approved, the devolução that returned it. */
  originalTransactionUuid?: string
  refundTransactionId?: string | null
  createdAt: string
  updatedAt: string
}
