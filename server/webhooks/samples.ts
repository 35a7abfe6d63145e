import { maskDocument } from '../domain/documents.js'
import { saoPauloTime } from '../domain/calendar.js'
import { endToEndId, returnId, type SeededRng } from '../domain/ids.js'
import type { Account } from '../store/state.js'
import type { DeliveryEventType } from './types.js'
import type { WebhookPayload } from '../schemas/webhooks.js'
import { cobrCallback, pixCallback } from '../dialects/api-pix/payloads.js'

/**
 * Sample payloads for `POST /__sandbox/webhooks/test`: one plausible event of each type, and of each
 * callback of API Pix (`pix`, `cobr`, `rec`), in the shape
 * the real flows send (docs/webhooks.md: the envelope of each event type), with a fixed amount of 10.00 BRL, so an
 * integrator can point a receiver at the sandbox and check parsing and signature before any money
 * moves. Pure: time and randomness come in.
 */
export interface SampleContext {
  account: Account
  transactionId: string
  nowMs: number
  rng: SeededRng
}

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

/** An id of API Pix made of the transactionId's letters and digits, padded with zeros or cut to `length`. */
const idOf = (ctx: SampleContext, length: number): string => ctx.transactionId.replace(/[^a-zA-Z0-9]/g, '').padEnd(length, '0').slice(0, length)
/** A txid (26 to 35 letters and digits): 32 of them, a made-up transactionId's (a UUID's) whole. */
const sampleTxid = (ctx: SampleContext): string => idOf(ctx, 32)
/** An idRec: `RN`, the account's ISPB, the day, 11 letters and digits. */
const sampleIdRec = (ctx: SampleContext): string => `RN${ctx.account.ispb}${new Date(ctx.nowMs).toISOString().slice(0, 10).replaceAll('-', '')}${idOf(ctx, 11)}`

/** One sample per event type and callback, each the payload type of its event (server/schemas/webhooks.ts). */
const samples: { [E in DeliveryEventType]: (ctx: SampleContext) => WebhookPayload<E> } = {
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
  rec: ctx => {
    const at = new Date(ctx.nowMs).toISOString()
    return { recs: [{ idRec: sampleIdRec(ctx), status: 'APROVADA', atualizacao: [{ status: 'CRIADA', data: at }, { status: 'APROVADA', data: at }], ativacao: { tipoJornada: 'JORNADA_1' } }] }
  },
  // A PIX received paying a cob; no key, as the one sample goes to every webhook per key of the account.
  pix: ctx => pixCallback([{ endToEndId: endToEndId(PAYER.ispb, ctx.nowMs, ctx.rng), txid: sampleTxid(ctx), valor: '10.00', horario: new Date(ctx.nowMs).toISOString(), devolucoes: [] }]),
  // A recurring charge paid at its scheduled attempt.
  cobr: ctx => {
    const at = new Date(ctx.nowMs).toISOString()
    const txid = sampleTxid(ctx)
    const e2e = endToEndId(PAYER.ispb, ctx.nowMs, ctx.rng)
    return cobrCallback([{
      idRec: sampleIdRec(ctx),
      txid,
      status: 'CONCLUIDA',
      atualizacao: [{ status: 'CRIADA', data: at }, { status: 'ATIVA', data: at }, { status: 'CONCLUIDA', data: at }],
      tentativas: [{ dataLiquidacao: saoPauloTime(ctx.nowMs).day, tipo: 'AGND', endToEndId: e2e, status: 'PAGA', atualizacao: [{ status: 'SOLICITADA', data: at }, { status: 'AGENDADA', data: at }, { status: 'PAGA', data: at }] }],
      pix: [{ endToEndId: e2e, txid, valor: '10.00', horario: at, devolucoes: [] }],
    }])
  },
}

export function samplePayload<E extends DeliveryEventType> (eventType: E, ctx: SampleContext): WebhookPayload<E> {
  return samples[eventType](ctx)
}
