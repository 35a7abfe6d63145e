import type { CobRCallback, PixCallback } from '../../schemas/webhooks.js'

/**
 * The pure builder of API Pix's callback (docs/api-pix.md, webhook): `{ "pix": [...] }`, posted to
 * `{webhookUrl}/pix`, the received PIX as GET /pix/{e2eid} shows them (with their devoluções). Its type
 * is its schema's (server/schemas/webhooks.ts, PixCallbackSchema).
 */
export function pixCallback (pix: PixCallback['pix']): PixCallback {
  return { pix }
}

/** Pix Automático's callback (docs/api-pix.md, "Recurring charges"): `{ "cobsr": [...] }`, posted to `{webhookUrl}/cobr`. */
export function cobrCallback (cobsr: CobRCallback['cobsr']): CobRCallback {
  return { cobsr }
}
