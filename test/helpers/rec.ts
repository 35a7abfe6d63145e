import type { FastifyInstance } from 'fastify'
import { bearer } from './app.js'

/** Helpers of the Pix Automático tests (docs/api-pix.md, Pix Automático). */

/** A POST /rec body (RecSolicitada) starting after T0, monthly, of a fixed value. */
export const recBody = (over: Record<string, unknown> = {}) => ({
  vinculo: { contrato: '63100862', devedor: { cpf: '45164632481', nome: 'Fulano de Tal' }, objeto: 'Streaming de música' },
  calendario: { dataInicial: '2026-04-01', dataFinal: '2027-03-01', periodicidade: 'MENSAL' },
  valor: { valorRec: '35.00' },
  politicaRetentativa: 'NAO_PERMITE',
  ...over,
})

/** Requests of one token. */
export function client (app: FastifyInstance, token: string) {
  return (method: 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    app.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload: payload as object } : {}) })
}

/** A control-plane POST (the payer's side). */
export const control = (app: FastifyInstance, url: string, payload: object = {}) => app.inject({ method: 'POST', url, payload })
