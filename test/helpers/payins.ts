import type { FastifyInstance } from 'fastify'
import type { WebhookEvent } from '../../server/webhooks/types.js'
import { bearer } from './app.js'

/**
 * Helpers of the pay-in tests: a recorder of the events the services emit (wrapping
 * app.sandbox.webhooks.emit, so the payload is checked whether or not a receiver is registered)
 * and short ways to create and pay charges.
 */
export function recordWebhooks (app: FastifyInstance): WebhookEvent[] {
  const events: WebhookEvent[] = []
  const webhooks = app.sandbox.webhooks
  const original = webhooks.emit.bind(webhooks)
  webhooks.emit = (event: WebhookEvent) => {
    events.push(structuredClone(event))
    original(event)
  }
  return events
}

export const PAYER = { fullName: 'MARIA DA SILVA', document: '52998224725' }

export function cashInBody (overrides: { value?: number, externalId?: string, expirationTime?: number, generateQrCode?: boolean, splits?: unknown[], description?: string } = {}): Record<string, unknown> {
  const { splits, ...transaction } = overrides
  return {
    transaction: { value: 100, description: 'Pedido 42', externalId: `ext-${Math.random().toString(36).slice(2)}`, ...transaction },
    payer: PAYER,
    ...(splits ? { splits } : {}),
  }
}

export async function createCashIn (app: FastifyInstance, token: string, body: Record<string, unknown> = cashInBody(), headers: Record<string, string> = {}) {
  const res = await app.inject({ method: 'POST', url: '/api/pix/cash-in', headers: { ...bearer(token), ...headers }, payload: body })
  if (res.statusCode !== 201) throw new Error(`cash-in failed: ${res.statusCode} ${res.body}`)
  return res.json() as { transactionId: string, pixCode: string, externalId: string, status: string, expirationDate: string, qrCodeImage?: string }
}

export async function payCode (app: FastifyInstance, pixCode: string, extra: Record<string, unknown> = {}) {
  return app.inject({ method: 'POST', url: '/__sandbox/pix/pay', payload: { pixCode, ...extra } })
}

export async function advance (app: FastifyInstance, ms: number): Promise<void> {
  const res = await app.inject({ method: 'POST', url: '/__sandbox/clock/advance', payload: { ms } })
  if (res.statusCode !== 200) throw new Error(`advance failed: ${res.statusCode} ${res.body}`)
}

/** A valid 26-35 character txid. */
export function aTxid (n = 1): string {
  return `sandboxtxid${String(n).padStart(4, '0')}abcdefghijklmnop`.slice(0, 30)
}

export async function receiveIncoming (app: FastifyInstance, accountId: number, amount: number, payer?: Record<string, unknown>) {
  const res = await app.inject({ method: 'POST', url: '/__sandbox/pix/incoming', payload: { accountId, amount, ...(payer ? { payer } : {}) } })
  if (res.statusCode !== 201) throw new Error(`incoming failed: ${res.statusCode} ${res.body}`)
  return res.json() as { transactionId: string, endToEndId: string, amount: number }
}
