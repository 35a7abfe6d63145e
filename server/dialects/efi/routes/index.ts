import type { FastifyPluginAsync } from 'fastify'
import { Refusal } from '../../../errors/refusal.js'
import { bodilessTolerantParsers } from '../../shared/bodies.js'
import { Envios } from '../envios.js'
import { v2Sends, v3Sends } from './pix-send.js'
import { accountRoutes } from './account.js'
import { EfiAccount } from '../account.js'
import { qrCodeRoutes } from './qrcodes.js'
import { medRoutes } from './med.js'
import { resendRoutes } from './resend.js'
import { receiptRoutes } from './receipts.js'
import { extratoRoutes } from './extrato.js'
import { EfiExtrato } from '../extrato.js'
import { EfiReceipts } from '../receipts.js'
import { EfiResend } from '../resend.js'
import { EfiMed } from '../med.js'
import { EfiQrCodes } from '../qrcodes.js'
import { efiPrefixes } from '../errors.js'
import { splitChargeRoutes, splitDevolucaoRoutes, splitRoutes } from './split.js'
import { EfiSplit } from '../split.js'
import { named } from '../../../named-plugins.js'

/** What every plugin of Efí's routes has: its body parsers, and Efí's 404 for a `/gn/` path that is none of its routes. */
const common: FastifyPluginAsync = async (app) => {
  // sdk-node-apis-efi sends bodiless POSTs and PUTs as empty forms; gn-api-sdk-node as empty JSON (shared/bodies.ts).
  bodilessTolerantParsers(app, { emptyForms: true })
  app.all('/gn/*', {
    schema: { hide: true },
    onRequest: (request, _reply, done) => { done(new Refusal('ROUTE_NOT_FOUND', `Rota ${request.method} ${request.url.split('?')[0]} não encontrada`)) },
  }, async () => undefined)
}

/** Efí's routes under API Pix's base path (`/v2` at Efí): a plugin registered with that prefix. */
export const efiV2Routes: FastifyPluginAsync = async (app) => {
  await common(app, {})
  await app.register(named('efi-pix-send', v2Sends(new Envios(app.sandbox))))
  await app.register(named('efi-account', accountRoutes(new EfiAccount(app.sandbox))))
  await app.register(named('efi-med', medRoutes(new EfiMed(app.sandbox))))
  await app.register(named('efi-resend', resendRoutes(new EfiResend(app.sandbox))))
  await app.register(named('efi-receipts', receiptRoutes(new EfiReceipts(app.sandbox))))
  await app.register(named('efi-extrato', extratoRoutes(new EfiExtrato(app.sandbox))))
  const split = new EfiSplit(app.sandbox)
  await app.register(named('efi-split', splitRoutes(split)))
  await app.register(named('efi-split-charges', splitChargeRoutes(split)))
  await app.register(named('efi-split-devolucao', splitDevolucaoRoutes(split)))
  await app.register(named('efi-qrcodes', qrCodeRoutes(new EfiQrCodes(app.sandbox), efiPrefixes(app.sandbox.config.apiPixBasePath).v2)))
}

/** Efí's routes under its `/v3` (the base path's sibling). */
export const efiV3Routes: FastifyPluginAsync = async (app) => {
  await common(app, {})
  await app.register(named('efi-pix-send-v3', v3Sends(new Envios(app.sandbox))))
}
