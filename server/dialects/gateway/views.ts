import { centsToNumber } from '../../domain/money.js'
import type { Store } from '../../store/store.js'
import type { Transaction, TransactionOf } from '../../store/state.js'
import type { ReceivedPixViews, RefundReads } from '../../ports.js'
import { chargeData, receivedOf } from '../../services/charge-records.js'
import { refundData, refundStatusAs } from '../../services/refunds.js'
import { cobTerms, receivedPixView } from '../shared/bacen.js'

/*
 * The gateway's answers (docs/gateway.md §2): each a pure function of the records, for its routes
 * under /api and its central-bank-compatible routes.
 */

/** POST /api/pix/cash-in's answer (docs/gateway.md §2.6). */
export function cashInView (charge: Transaction, qrCodeImage?: string) {
  const d = chargeData(charge)
  return {
    transactionId: charge.id,
    correlationId: d.correlationId!,
    externalId: charge.externalId!,
    status: charge.status,
    pixCode: d.pixCode!,
    generateTime: charge.createdAt,
    expirationDate: charge.dueAt ?? charge.createdAt,
    ...(qrCodeImage !== undefined ? { qrCodeImage } : {}),
  }
}

/** POST /api/pix/refund-in/:id's answer (docs/gateway.md §2.7). */
export function refundInView (tx: Transaction) {
  const d = refundData(tx)
  return {
    transactionId: tx.id,
    externalId: d.devolucaoId,
    status: refundStatusAs('REFUND_IN', tx),
    refundValue: centsToNumber(tx.amountCents),
    providerTransactionId: d.rtrId,
    generateTime: tx.createdAt,
  }
}

export type GatewayViewDeps = { store: Pick<Store, 'account'>, refunds: RefundReads }

/** The central-bank-compatible /cob's answer (docs/gateway.md §2.8, BACEN's CobCompleta): the charge's own location and BR Code. */
export function cobView (deps: GatewayViewDeps, charge: TransactionOf<'COB'>) {
  const d = chargeData(charge)
  const cob = d.cob!
  const received = receivedOf(charge)
  return {
    calendario: { criacao: charge.createdAt, expiracao: cob.expiracao },
    txid: d.txid!,
    revisao: cob.revisao ?? 0,
    loc: { id: cob.locId, location: d.pixCode!, tipoCob: 'cob', criacao: charge.createdAt, txid: d.txid! },
    location: d.pixCode!,
    ...cobTerms(charge, deps.store.account(charge.accountId)),
    pixCopiaECola: d.pixCode!,
    ...(received ? { pix: [receivedPixView(deps.refunds, charge)] } : {}),
  }
}

/** The central-bank-compatible routes' received PIX (GET /pix): the charge's txid, whatever it is, and BACEN's `Pix` with the payer. */
export const receivedPixViews = (refunds: RefundReads): ReceivedPixViews<ReturnType<typeof receivedPixView>> => ({
  txidOf: tx => chargeData(tx).txid,
  view: tx => receivedPixView(refunds, tx),
})
