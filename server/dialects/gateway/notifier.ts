import type { DomainEvent, Notifier } from '../../events.js'
import type { Clock } from '../../engine/clock.js'
import type { Store } from '../../store/store.js'
import { isKind, PAYOUT_KINDS, type Transaction } from '../../store/state.js'
import type { WebhookService } from '../../webhooks/service.js'
import { chargeData } from '../../services/charge-records.js'
import { refundData } from '../../services/refunds.js'
import { iso } from '../../services/history.js'
import { cashOutNotification, transferEnvelope } from './payloads/cash-out.js'
import { medEnvelope, receiveEnvelope, refundEnvelope, refundOutEnvelope, type MedRefundSummary } from './payloads/pay-in.js'
import { devolucaoView, type DevolucaoView } from '../shared/bacen.js'

export type GatewayNotifierDeps = {
  store: Pick<Store, 'transaction' | 'data'>
  clock: Pick<Clock, 'now'>
  /** Its events go to the registrations of their type (WebhookService.emit, looked up at each call: a test may wrap it). */
  webhooks: Pick<WebhookService, 'emit'>
}

/** The devolução an accepted MED returned the money with, as its `med_accepted` and the control plane show it. */
export function medRefundSummary (tx: Transaction): MedRefundSummary {
  const view: DevolucaoView = devolucaoView(tx)
  return { id: view.id, rtrId: refundData(tx).rtrId, valor: view.valor, natureza: view.natureza, status: view.status, motivo: view.motivo ?? null }
}

/**
 * The gateway's webhooks (docs/gateway.md §6): each domain event as the event type its registrations
 * take, with the payload of docs/gateway.md §6.3, 6.4 (server/dialects/gateway/payloads/), built from
 * the records as they stand when the event is emitted.
 */
export class GatewayNotifier implements Notifier {
  constructor (private readonly deps: GatewayNotifierDeps) {}

  notify (event: DomainEvent): void {
    switch (event.kind) {
      case 'pix-received': return this.received(event.transactionId, event.scenarios)
      case 'payout-changed': return this.payout(event.transactionId)
      case 'refund-changed': return event.direction === 'in' ? this.refundIn(event.transactionId) : this.refundOut(event.transactionId)
      case 'med-changed': return this.med(event)
    }
  }

  /** `cash_in`: the V2 RECEIVE envelope of a charge paid (or refused by PAYMENT_ERROR) or a PIX received. */
  private received (id: string, scenarios: Extract<DomainEvent, { kind: 'pix-received' }>['scenarios']): void {
    const tx = this.deps.store.transaction(id)!
    const d = chargeData(tx)
    const received = d.received!
    this.deps.webhooks.emit({
      accountId: tx.accountId,
      eventType: 'cash_in',
      transactionId: tx.id,
      payload: receiveEnvelope({
        id: tx.seq,
        txId: d.txid,
        amountCents: received.amountCents,
        endToEndId: received.endToEndId,
        debtor: { name: received.payer.name, document: received.payer.document },
        ...(tx.errorCode ? { failure: { code: tx.errorCode, message: tx.errorMessage ?? tx.errorCode } } : {}),
      }),
      scenarios,
    })
  }

  /** `cash_out`: the CashOut notification of a cash-out, the V2 TRANSFER envelope of POST /dict/pix. */
  private payout (id: string): void {
    const tx = this.deps.store.transaction(id)!
    if (!isKind(tx, PAYOUT_KINDS)) return
    const payload = tx.kind === 'DICT_TRANSFER' ? transferEnvelope(tx) : cashOutNotification(tx, this.deps.clock.now())
    this.deps.webhooks.emit({ accountId: tx.accountId, eventType: 'cash_out', transactionId: tx.id, payload, scenarios: tx.scenarios })
  }

  /** `refund_in`: the V2 REFUND envelope of a refund the account made of a payment it received. */
  private refundIn (id: string): void {
    const tx = this.deps.store.transaction(id)!
    const d = refundData(tx)
    const original = this.deps.store.transaction(d.originalId)!
    const received = chargeData(original).received!
    this.deps.webhooks.emit({
      accountId: tx.accountId,
      eventType: 'refund_in',
      transactionId: tx.id,
      payload: refundEnvelope({
        id: original.seq,
        txId: chargeData(original).txid,
        originalAmountCents: received.amountCents,
        originalEndToEndId: received.endToEndId,
        refund: { amountCents: tx.amountCents, endToEndId: d.rtrId, eventDate: iso(this.deps.clock.now()), information: d.descricao ?? d.reason ?? '' },
        ...(tx.errorCode ? { failure: { code: tx.errorCode, message: tx.errorMessage ?? tx.errorCode } } : {}),
      }),
      scenarios: tx.scenarios,
    })
  }

  /** `refund_out`: the REFUND envelope seen from the side whose payment came back. */
  private refundOut (id: string): void {
    const tx = this.deps.store.transaction(id)!
    if (tx.kind !== 'REFUND_RECEIVED') return
    const original = this.deps.store.transaction(tx.data.originalId)!
    this.deps.webhooks.emit({
      accountId: tx.accountId,
      eventType: 'refund_out',
      transactionId: tx.id,
      payload: refundOutEnvelope({
        id: original.seq,
        txId: null,
        originalAmountCents: original.amountCents,
        originalEndToEndId: original.endToEndId!,
        refund: { amountCents: tx.amountCents, endToEndId: tx.endToEndId!, eventDate: tx.createdAt, information: tx.data.reason ?? '' },
      }),
      scenarios: tx.scenarios,
    })
  }

  /** `med_created`, `med_rejected`, `med_accepted`: the MED record after the change, an acceptance with its devolução. */
  private med (event: Extract<DomainEvent, { kind: 'med-changed' }>): void {
    const record = this.deps.store.data.meds[event.medId]
    const refund = event.transition !== 'accepted'
      ? undefined
      : event.refundId === undefined ? null : medRefundSummary(this.deps.store.transaction(event.refundId)!)
    this.deps.webhooks.emit({ accountId: event.accountId, eventType: `med_${event.transition}`, transactionId: event.transactionId, payload: medEnvelope(record, refund), scenarios: event.scenarios })
  }
}
