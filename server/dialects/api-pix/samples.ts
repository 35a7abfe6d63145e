import { saoPauloTime } from '../../domain/calendar.js'
import { endToEndId } from '../../domain/ids.js'
import type { ApiPixCallback } from '../../store/state.js'
import type { WebhookPayload } from '../../schemas/webhooks.js'
import type { SampleContext } from '../../webhooks/samples.js'
import { cobrCallback, pixCallback } from './payloads.js'

/**
 * A sample of each callback of API Pix (docs/api-pix.md: `pix`, `cobr`, `rec`), for
 * `POST /__sandbox/webhooks/test` and the report's probe (server/webhooks/samples.ts), each its
 * callback's payload type.
 */

const PAYER = { ispb: '00000000' }

/** An id of API Pix made of the transactionId's letters and digits, padded with zeros or cut to `length`. */
const idOf = (ctx: SampleContext, length: number): string => ctx.transactionId.replace(/[^a-zA-Z0-9]/g, '').padEnd(length, '0').slice(0, length)
/** A txid (26 to 35 letters and digits): 32 of them, a made-up transactionId's (a UUID's) whole. */
const sampleTxid = (ctx: SampleContext): string => idOf(ctx, 32)
/** An idRec: `RN`, the account's ISPB, the day, 11 letters and digits. */
const sampleIdRec = (ctx: SampleContext): string => `RN${ctx.account.ispb}${new Date(ctx.nowMs).toISOString().slice(0, 10).replaceAll('-', '')}${idOf(ctx, 11)}`

/** One sample per callback. */
export const apiPixSamples: { [E in ApiPixCallback]: (ctx: SampleContext) => WebhookPayload<E> } = {
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
