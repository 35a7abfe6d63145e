import { maskDocument } from '../domain/documents.js'
import { endToEndId, returnId, type SeededRng } from '../domain/ids.js'
import type { Account } from '../store/state.js'
import type { EventType } from './types.js'

/**
 * Sample payloads for `POST /__sandbox/webhooks/test`: one plausible event of each type, in the shape
 * the real flows send (README.md, Webhooks: the envelope of each event type), with a fixed amount of 10.00 BRL, so an
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

export function samplePayload (eventType: EventType, ctx: SampleContext): unknown {
  const at = new Date(ctx.nowMs).toISOString()
  const e2e = endToEndId(PAYER.ispb, ctx.nowMs, ctx.rng)
  const id = 1 + ctx.rng.int(1_000_000)
  switch (eventType) {
    case 'cash_out':
      return {
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
        processingDate: at,
        errorCode: null,
        errorMessage: null,
        counterpart: {
          name: PAYER.name,
          document: maskDocument(PAYER.document),
          bank: { bankISPB: PAYER.ispb, bankName: 'BANCO EXEMPLO S.A.', bankCode: '001', accountBranch: null, accountNumber: null },
        },
        metadata: { sample: true },
      }
    case 'cash_in':
      return {
        type: 'RECEIVE',
        data: { id, txId: ctx.transactionId.replace(/-/g, ''), status: 'LIQUIDATED', payment: { amount: '10.00', currency: 'BRL' }, endToEndId: e2e, debtorAccount: { name: PAYER.name, document: maskDocument(PAYER.document) } },
      }
    case 'refund_in':
    case 'refund_out':
      return {
        type: 'REFUND',
        data: {
          id,
          txId: ctx.transactionId.replace(/-/g, ''),
          status: 'REFUNDED',
          payment: { amount: '10.00', currency: 'BRL' },
          refunds: [{ status: 'LIQUIDATED', payment: { amount: 10, currency: 'BRL' }, endToEndId: returnId(ctx.account.ispb, ctx.nowMs, ctx.rng), eventDate: at, information: 'Devolução de exemplo' }],
          endToEndId: e2e,
          creditDebitType: eventType === 'refund_in' ? 'DEBIT' : 'CREDIT',
        },
      }
    case 'med_created':
    case 'med_accepted':
    case 'med_rejected': {
      const analysed = eventType !== 'med_created'
      return {
        id,
        endToEnd: e2e,
        status: analysed ? 'ANALYZED' : 'OPEN',
        reason: 'REFUND_REQUEST',
        cause: 'FRAUD',
        description: 'MED de exemplo',
        analysisResult: eventType === 'med_accepted' ? 'APPROVED' : eventType === 'med_rejected' ? 'REJECTED' : null,
        analysisDetails: analysed ? 'Análise de exemplo' : null,
        requestingBank: { ispb: PAYER.ispb, name: 'BANCO EXEMPLO S.A.' },
        contestedBank: { ispb: ctx.account.ispb, name: ctx.account.bankName },
        originalTransaction: { amount: 10, type: 'PIX', transactionType: 'CREDIT', name: PAYER.name, document: maskDocument(PAYER.document), dateTime: at },
        isReconciled: false,
        originalTransactionId: null,
        createdAt: at,
        updatedAt: at,
      }
    }
  }
}
