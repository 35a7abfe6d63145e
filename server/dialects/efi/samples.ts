import { endToEndId } from '../../domain/ids.js'
import type { SampleContext } from '../../webhooks/samples.js'
import type { PixSentCallbackType } from './schemas.js'

/** A sample of Efí's callback of a sent PIX (`POST /__sandbox/webhooks/test`, the report's probe): one that settled. */
export function pixSentSample (ctx: SampleContext): PixSentCallbackType {
  const id = ctx.transactionId.replace(/[^a-zA-Z0-9]/g, '').slice(0, 35) || 'envio1'
  return {
    pix: [{
      endToEndId: endToEndId(ctx.account.ispb, ctx.nowMs, ctx.rng),
      chave: ctx.account.document,
      tipo: 'SOLICITACAO',
      status: 'REALIZADO',
      valor: '10.00',
      horario: new Date(ctx.nowMs).toISOString(),
      gnExtras: { idEnvio: id },
    }],
  }
}
