import { centsToNumber } from '../../domain/money.js'
import type { Account, DeepReadonly, MercadoPagoPayment, Transaction } from '../../store/state.js'
import { chargeData } from '../../services/charge-records.js'
import { refundStatusAs } from '../../services/refunds.js'

/**
 * Records as Mercado Pago shows them (docs/mercado-pago.md, "The payment object"): a charge made by
 * POST /v1/payments (a CASH_IN with its `mercadoPago` data) as the payment object, each refund-in of it
 * as a refund object, with Mercado Pago's dates and status words.
 */

/** The offset production writes every date of a payment and a refund in (docs/assumptions.md, Mercado Pago). */
const OFFSET_MS = -4 * 3_600_000

/** `yyyy-MM-ddTHH:mm:ss.SSS-04:00`. */
export function mpDate (at: string | number): string {
  const ms = typeof at === 'number' ? at : Date.parse(at)
  return new Date(ms + OFFSET_MS).toISOString().slice(0, 23) + '-04:00'
}

/** The payment id a txid `mpqrinter<id>` names. */
export const TXID_PREFIX = 'mpqrinter'
/** Payment ids start at 12 digits, refund ids at 10, as production's (docs/assumptions.md, Mercado Pago). */
export const PAYMENT_ID_BASE = 140_000_000_000
export const REFUND_ID_BASE = 1_200_000_000

/** The Mercado Pago data of a record, when it is a payment made through POST /v1/payments. */
export function paymentOf (tx: Transaction): DeepReadonly<MercadoPagoPayment> | undefined {
  return tx.kind === 'CASH_IN' ? tx.data.mercadoPago : undefined
}

export type PaymentStatus = { status: string, detail: string }

/** A payment's refunds that moved money back, and their sum. */
export function refundedCents (refunds: readonly Transaction[]): number {
  return refunds.filter(r => refundStatusAs('REFUND_IN', r) === 'CONFIRMED').reduce((sum, r) => sum + r.amountCents, 0)
}

/** `status` and `status_detail` through a payment's life (docs/mercado-pago.md, Statuses). */
export function statusOf (tx: Transaction, refunds: readonly Transaction[]): PaymentStatus {
  switch (tx.status) {
    case 'PENDING': return { status: 'pending', detail: 'pending_waiting_transfer' }
    case 'CONFIRMED': {
      const refunded = refundedCents(refunds)
      if (refunded === 0) return { status: 'approved', detail: 'accredited' }
      return refunded >= tx.amountCents ? { status: 'refunded', detail: 'refunded' } : { status: 'approved', detail: 'partially_refunded' }
    }
    default:
      if (tx.errorCode === 'EXPIRED') return { status: 'cancelled', detail: 'expired' }
      if (tx.errorCode === 'CANCELLED') return { status: 'cancelled', detail: 'by_collector' }
      return { status: 'rejected', detail: 'rejected_by_bank' }
  }
}

/** Where its ticket page is served, and how the QR image of a code is drawn (PNG, base64 without a prefix). */
export interface PaymentViewContext {
  baseUrl: string
  qrImage (pixCode: string): string
  version: string
}

/** A refund held in process (`REFUND_DELAY`, `REFUND_FAILED` until it fails): Mercado Pago's contingency. */
export const isRefundInProcess = (refund: Transaction): boolean => refundStatusAs('REFUND_IN', refund) === 'PENDING'

/** The refund object (docs/mercado-pago.md, Refunds). */
export function refundView (refund: Transaction, payment: DeepReadonly<MercadoPagoPayment>, account: Account | undefined) {
  const amount = centsToNumber(refund.amountCents)
  const phase = refundStatusAs('REFUND_IN', refund)
  return {
    id: REFUND_ID_BASE + refund.seq,
    payment_id: payment.paymentId,
    amount,
    metadata: {},
    source: { id: String(account?.mercadoPago?.userId ?? ''), name: account?.name ?? '', type: 'collector' },
    date_created: mpDate(refund.createdAt),
    unique_sequence_number: null,
    refund_mode: 'standard',
    adjustment_amount: 0,
    status: phase === 'CONFIRMED' ? 'approved' : phase === 'PENDING' ? 'in_process' : 'rejected',
    reason: null,
    // As the docs' example of a refund in contingency labels it.
    labels: phase === 'PENDING' ? ['hidden', 'contingency'] : [] as string[],
    amount_refunded_to_payer: phase === 'CONFIRMED' ? amount : 0,
    partition_details: [] as unknown[],
  }
}

/** The payment object, every key production answers (null where it has nothing). */
export function paymentView (tx: Transaction, refunds: readonly Transaction[], account: Account | undefined, ctx: PaymentViewContext) {
  const mp = paymentOf(tx)!
  const data = chargeData(tx)
  const received = data.received
  const paid = tx.status === 'CONFIRMED' && received !== undefined
  const { status, detail } = statusOf(tx, refunds)
  const amount = centsToNumber(tx.amountCents)
  const created = mpDate(tx.createdAt)
  const approved = paid ? mpDate(received.at) : null
  const transactionId = paid ? `PIX${received.endToEndId}` : null
  // The payer's email and document are shown once the payment is approved (or refunded).
  const payerShown = paid
  const collectorId = account?.mercadoPago?.userId ?? 0
  const refundObjects = refunds.map(r => refundView(r, mp, account))
  return {
    accounts_info: null,
    acquirer_reconciliation: [] as unknown[],
    additional_info: {
      ...(mp.additionalInfo ?? {}),
      ...(paid ? { bank_info: { is_same_bank_account_owner: received.payer.document === account?.document } } : {}),
      tracking_id: mp.trackingId,
    },
    authorization_code: null,
    binary_mode: false,
    brand_id: null,
    build_version: `sandbox-${ctx.version}`,
    call_for_authorize_id: null,
    callback_url: null,
    captured: true,
    card: {},
    charges_details: [] as unknown[],
    collector_id: collectorId,
    corporation_id: null,
    counter_currency: null,
    coupon_amount: 0,
    currency_id: 'BRL',
    date_approved: approved,
    date_created: created,
    date_last_updated: mpDate(tx.updatedAt),
    date_of_expiration: mpDate(mp.expiresAt),
    deduction_schema: null,
    description: tx.description ?? null,
    differential_pricing_id: null,
    external_reference: mp.externalReference ?? null,
    fee_details: [] as unknown[],
    financing_group: null,
    id: mp.paymentId,
    installments: 1,
    integrator_id: null,
    issuer_id: '12501',
    live_mode: account?.mercadoPago?.accessToken.startsWith('APP_USR-') === true,
    marketplace_owner: null,
    merchant_account_id: null,
    merchant_number: null,
    metadata: mp.metadata,
    money_release_date: approved,
    money_release_schema: null,
    money_release_status: 'released',
    notification_url: mp.notificationUrl ?? null,
    operation_type: 'regular_payment',
    order: {},
    payer: {
      email: payerShown ? mp.payer.email : null,
      entity_type: null,
      first_name: null,
      id: mp.payer.id,
      identification: payerShown && mp.payer.identification !== undefined ? { number: mp.payer.identification.number, type: mp.payer.identification.type } : { number: null, type: null },
      last_name: null,
      operator_id: null,
      phone: { area_code: null, extension: null, number: null },
      type: null,
    },
    payment_method: { id: 'pix', issuer_id: '12501', type: 'bank_transfer' },
    payment_method_id: 'pix',
    payment_type_id: 'bank_transfer',
    platform_id: null,
    point_of_interaction: {
      application_data: { name: null, operating_system: null, version: null },
      business_info: { branch: null, sub_unit: 'sdk', unit: 'online_payments' },
      location: { source: null, state_id: null },
      ...(paid ? { sub_type: 'INTER_PSP' } : {}),
      transaction_data: {
        bank_info: {
          collector: { account_alias: null, account_holder_name: account?.name ?? null, account_id: null, long_name: paid ? account?.bankName ?? null : null, transfer_account_id: null },
          is_same_bank_account_owner: paid ? received.payer.document === account?.document : null,
          origin_bank_id: null,
          origin_wallet_id: null,
          payer: { account_id: null, branch: null, external_account_id: null, id: null, identification: {}, is_end_consumer: null, long_name: paid ? received.payer.bankName : null },
        },
        bank_transfer_id: paid ? tx.seq : null,
        e2e_id: null,
        financial_institution: paid ? 1 : null,
        infringement_notification: { status: null, type: null },
        is_end_consumer: null,
        merchant_category_code: null,
        qr_code: data.pixCode ?? '',
        qr_code_base64: ctx.qrImage(data.pixCode ?? ''),
        ticket_url: `${ctx.baseUrl}/mercadopago/payments/${mp.paymentId}/ticket?caller_id=${mp.payer.id}&hash=${mp.ticketHash}`,
        transaction_id: transactionId,
      },
      type: 'OPENPLATFORM',
    },
    pos_id: null,
    processing_mode: 'aggregator',
    refunds: refundObjects,
    release_info: null,
    shipping_amount: 0,
    sponsor_id: null,
    statement_descriptor: mp.statementDescriptor ?? null,
    status,
    status_detail: detail,
    store_id: null,
    tags: null,
    taxes_amount: 0,
    transaction_amount: amount,
    transaction_amount_refunded: centsToNumber(refundedCents(refunds)),
    transaction_details: {
      acquirer_reference: null,
      bank_transfer_id: paid ? tx.seq : null,
      external_resource_url: null,
      financial_institution: paid ? '1' : null,
      installment_amount: 0,
      // The sandbox's ledger takes no fee from money received: what arrives is what is credited.
      net_received_amount: paid ? amount : 0,
      overpaid_amount: 0,
      payable_deferral_period: null,
      payment_method_reference_id: null,
      total_paid_amount: amount,
      transaction_id: transactionId,
    },
  }
}

export type PaymentView = ReturnType<typeof paymentView>
export type RefundView = ReturnType<typeof refundView>
