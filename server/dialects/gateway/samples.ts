import { maskDocument } from '../../domain/documents.js'
import { endToEndId, returnId } from '../../domain/ids.js'
import type { WebhookPayload } from '../../schemas/webhooks.js'
import type { SampleContext } from '../../webhooks/samples.js'
import type { GATEWAY_EVENT_TYPES } from '../../store/state.js'

/**
 * A sample of each event type of the gateway (docs/gateway.md §6), for `POST /__sandbox/webhooks/test`
 * and the report's probe (server/webhooks/samples.ts), each its event's payload type.
 */

const PAYER = { name: 'FULANO DE TAL', document: '12345678909', ispb: '00000000' }

const sameSuccess = { errorCode: null, errorMessage: null }

function refundSample<D extends 'DEBIT' | 'CREDIT'> (ctx: SampleContext, creditDebitType: D) {
  const at = new Date(ctx.nowMs).toISOString()
  return {
    type: 'REFUND' as const,
    data: {
      id: sampleId(ctx),
      txId: ctx.transactionId.replace(/-/g, ''),
      status: 'REFUNDED' as const,
      payment: { amount: '10.00', currency: 'BRL' },
      refunds: [{ status: 'LIQUIDATED' as const, payment: { amount: 10, currency: 'BRL' }, endToEndId: returnId(ctx.account.ispb, ctx.nowMs, ctx.rng), eventDate: at, information: 'Devolução de exemplo' }],
      endToEndId: endToEndId(PAYER.ispb, ctx.nowMs, ctx.rng),
      creditDebitType,
      ...sameSuccess,
    },
  }
}

function medSample (ctx: SampleContext, analysisResult: 'APPROVED' | 'REJECTED' | null): WebhookPayload<'med_created'> {
  const at = new Date(ctx.nowMs).toISOString()
  const analysed = analysisResult !== null
  return {
    type: 'MED',
    data: {
      id: sampleId(ctx),
      endToEnd: endToEndId(PAYER.ispb, ctx.nowMs, ctx.rng),
      status: analysed ? 'ANALYZED' : 'OPEN',
      reason: 'REFUND_REQUEST',
      cause: 'FRAUD',
      description: 'MED de exemplo',
      analysisResult,
      analysisDetails: analysed ? 'Análise de exemplo' : null,
      requestingBank: { ispb: PAYER.ispb, name: 'BANCO EXEMPLO S.A.' },
      contestedBank: { ispb: ctx.account.ispb, name: ctx.account.bankName },
      originalTransaction: { amount: 10, type: 'PIX', transactionType: 'CREDIT', name: PAYER.name, document: maskDocument(PAYER.document), dateTime: at },
      isReconciled: false,
      originalTransactionId: null,
      createdAt: at,
      updatedAt: at,
    },
  }
}

const sampleId = (ctx: SampleContext): number => 1 + ctx.rng.int(1_000_000)

/** One sample per event type of the gateway, each the payload type of its event (server/schemas/webhooks.ts). */
export const gatewaySamples: { [E in typeof GATEWAY_EVENT_TYPES[number]]: (ctx: SampleContext) => WebhookPayload<E> } = {
  cash_out: ctx => ({
    event: 'CashOut',
    status: 'CONFIRMED',
    transactionType: 'PIX',
    movementType: 'DEBIT',
    transactionId: ctx.transactionId,
    externalId: `sample-${ctx.transactionId.slice(0, 8)}`,
    endToEndId: endToEndId(ctx.account.ispb, ctx.nowMs, ctx.rng),
    pixKey: 'fulano@example.com',
    feeAmount: ctx.account.feeCents / 100,
    originalAmount: 10,
    finalAmount: (1000 + ctx.account.feeCents) / 100,
    processingDate: new Date(ctx.nowMs).toISOString(),
    ...sameSuccess,
    counterpart: {
      name: PAYER.name,
      document: maskDocument(PAYER.document),
      bank: { bankISPB: PAYER.ispb, bankName: 'BANCO EXEMPLO S.A.', bankCode: '001', accountBranch: null, accountNumber: null },
    },
    metadata: { sample: true },
  }),
  cash_in: ctx => ({
    type: 'RECEIVE',
    data: {
      id: sampleId(ctx),
      txId: ctx.transactionId.replace(/-/g, ''),
      status: 'LIQUIDATED',
      payment: { amount: '10.00', currency: 'BRL' },
      endToEndId: endToEndId(PAYER.ispb, ctx.nowMs, ctx.rng),
      debtorAccount: { name: PAYER.name, document: maskDocument(PAYER.document) },
      ...sameSuccess,
    },
  }),
  refund_in: ctx => refundSample(ctx, 'DEBIT'),
  refund_out: ctx => refundSample(ctx, 'CREDIT'),
  med_created: ctx => medSample(ctx, null),
  med_accepted: ctx => medSample(ctx, 'APPROVED'),
  med_rejected: ctx => medSample(ctx, 'REJECTED'),
}
