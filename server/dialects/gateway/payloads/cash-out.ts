import { maskDocument } from '../../../domain/documents.js'
import { centsToNumber, centsToString } from '../../../domain/money.js'
import type { Counterpart, Transaction } from '../../../store/state.js'
import type { CashOutNotification, TransferEnvelope } from '../../../schemas/webhooks.js'

/**
 * The payloads a pay-out sends with eventType `cash_out`: the standard family's CashOut notification
 * (docs/gateway.md §6.4) for /api/pix/cash-out and /api/pix/cash-out-qrcode, and the V2 TRANSFER envelope (docs/gateway.md §6.3)
 * for POST /dict/pix. Pure functions of the transaction record and the instant of processing; the
 * payloads' types are their schemas' (server/schemas/webhooks.ts).
 */

const noCounterpart: Counterpart = { name: '', document: '', ispb: '', bankName: '', bankCode: null, accountBranch: null, accountNumber: null }

/** The CashOut notification of docs/gateway.md §6.4, for a transaction that reached CONFIRMED or ERROR. */
export function cashOutNotification (tx: Transaction, processedAtMs: number): CashOutNotification {
  const confirmed = tx.status === 'CONFIRMED'
  const c = tx.counterpart ?? noCounterpart
  return {
    event: 'CashOut',
    status: confirmed ? 'CONFIRMED' : 'ERROR',
    transactionType: 'PIX',
    movementType: 'DEBIT',
    transactionId: tx.id,
    externalId: tx.externalId ?? '',
    endToEndId: tx.endToEndId ?? '',
    pixKey: tx.pixKey ?? '',
    feeAmount: centsToNumber(tx.feeCents),
    originalAmount: centsToNumber(tx.amountCents),
    finalAmount: centsToNumber(tx.amountCents + tx.feeCents),
    processingDate: new Date(processedAtMs).toISOString(),
    // The spec wants both null on success, whatever an earlier attempt may have left on the record.
    errorCode: confirmed ? null : (tx.errorCode ?? null),
    errorMessage: confirmed ? null : (tx.errorMessage ?? null),
    counterpart: {
      name: c.name,
      document: c.document,
      bank: { bankISPB: c.ispb, bankName: c.bankName, bankCode: c.bankCode, accountBranch: c.accountBranch, accountNumber: c.accountNumber },
    },
    metadata: {},
  }
}

/**
 * The V2 TRANSFER envelope of docs/gateway.md §6.3 for a directory transfer. A liquidated transfer carries the real
 * 32-character endToEndId; a failed one (not shown by the spec) is sent with status ERROR, no
 * endToEndId, and the errorCode/errorMessage of the CashOut notification, so a client learns the outcome.
 */
export function transferEnvelope (tx: Transaction): TransferEnvelope {
  const liquidated = tx.status === 'COMPLETED'
  const c = tx.counterpart ?? noCounterpart
  const data: TransferEnvelope['data'] = {
    id: tx.seq,
    txId: null,
    pixKey: tx.pixKey ?? '',
    status: liquidated ? 'LIQUIDATED' : 'ERROR',
    payment: { amount: centsToString(tx.amountCents), currency: (tx.kind === 'DICT_TRANSFER' ? tx.data.currency : undefined) ?? 'BRL' },
    endToEndId: liquidated ? (tx.endToEndId ?? null) : null,
    creditDebitType: 'DEBIT',
    idempotencyKey: tx.idempotencyKey ?? '',
    creditorAccount: { name: c.name, document: maskDocument(c.document), ispb: c.ispb },
    remittanceInformation: tx.description ?? '',
  }
  if (!liquidated) {
    data.errorCode = tx.errorCode ?? null
    data.errorMessage = tx.errorMessage ?? null
  }
  return { type: 'TRANSFER', data }
}
