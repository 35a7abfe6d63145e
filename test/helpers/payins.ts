import type { FastifyInstance } from 'fastify'
import { bearer } from './app.js'

/** Helpers of the pay-in tests: short ways to create and pay charges. */
export { advance, recordEmits } from './app.js'

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

/** A valid 26-35 character txid. */
export function aTxid (n = 1): string {
  return `sandboxtxid${String(n).padStart(4, '0')}abcdefghijklmnop`.slice(0, 30)
}

export async function receiveIncoming (app: FastifyInstance, accountId: number, amount: number, payer?: Record<string, unknown>) {
  const res = await app.inject({ method: 'POST', url: '/__sandbox/pix/incoming', payload: { accountId, amount, ...(payer ? { payer } : {}) } })
  if (res.statusCode !== 201) throw new Error(`incoming failed: ${res.statusCode} ${res.body}`)
  return res.json() as { transactionId: string, endToEndId: string, amount: number }
}
