import type { FastifyInstance } from 'fastify'
import type { WebhookEvent } from '../../server/webhooks/types.js'
import { bearer } from './app.js'

/**
 * Pay-out test helpers: short-hands for the requests most tests repeat.
 */
export { advance, recordEmits } from './app.js'

/** The cash_out events of one transaction, in emission order. */
export const cashOutEvents = (emitted: WebhookEvent[], transactionId?: string): WebhookEvent[] =>
  emitted.filter(e => e.eventType === 'cash_out' && (transactionId === undefined || e.transactionId === transactionId))

export const CPF_MARIA = '52998224725' // listed in fixtures/directory.json as a CPF key of MARIA DA SILVA
export const JOAO = { key: 'joao.souza@example.com', document: '03742693433' } // EMAIL key, active
export const FINANCEIRO = { key: 'financeiro@example.com', holderDocument: '32732844000113' } // held by a company
export const BLOCKED_KEY = 'bloqueada@example.com'
export const CLOSED_PHONE = '21912345678' // +5521912345678 in the directory, CLOSED
export const UNLISTED_EMAIL = 'ninguem@example.org'
export const OTHER_VALID_CPF = '65162559202'

export function cashOutBody (overrides: Record<string, unknown> = {}, details: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    value: 10,
    externalId: `ext-${Math.random().toString(36).slice(2)}`,
    description: 'pagamento de teste',
    details: { key: JOAO.key, keyType: 'EMAIL', name: 'Joao Souza', document: JOAO.document, ...details },
    ...overrides,
  }
}

export async function cashOut (app: FastifyInstance, token: string, body: Record<string, unknown>, scenario?: string) {
  return app.inject({
    method: 'POST',
    url: '/api/pix/cash-out',
    headers: { ...bearer(token), ...(scenario ? { 'x-sandbox-scenario': scenario } : {}) },
    payload: body,
  })
}

export async function transaction (app: FastifyInstance, id: string | number) {
  const res = await app.inject({ method: 'GET', url: `/__sandbox/transactions/${id}` })
  if (res.statusCode !== 200) throw new Error(`transaction ${id}: ${res.statusCode} ${res.body}`)
  return res.json()
}
