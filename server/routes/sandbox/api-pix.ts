import type { RoutesPlugin } from '../../route-plugin.js'
import { SandboxCobVList, SandboxCobVListQuery } from '../../dialects/api-pix/schemas/cobv.js'
import { SandboxLoteCobVList, SandboxLoteCobVListQuery } from '../../dialects/api-pix/schemas/lotecobv.js'
import { SandboxApiPixWebhookList, SandboxApiPixWebhookListQuery } from '../../dialects/api-pix/schemas/webhook.js'
import { apiPixViews } from '../../dialects/api-pix/views/index.js'

/**
 * /__sandbox/cobvs, /__sandbox/cobv-batches and /__sandbox/api-pix-webhooks: API Pix's due charges, their
 * batches and its webhooks (docs/api-pix.md) of every account or one, for the dashboard and tools,
 * without an OAuth token of each account.
 */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox
  const views = apiPixViews(sb)

  app.get('/cobvs', {
    schema: {
      operationId: 'sandboxListCobVs',
      tags: ['Sandbox'],
      summary: 'API Pix\'s due charges (cobv), of every account or one, the last made first, a page at a time',
      description: 'Each as GET /cobv/{txid} shows it, with its account, its transaction (chargeId) and valorHoje, what a payer pays today. ' +
        'At most limit (100 by default) per page; while older ones remain, nextCursor is the cursor of the next page (with the same accountId). A page costs the same whatever the number of cobvs.',
      querystring: SandboxCobVListQuery,
      response: { 200: SandboxCobVList },
    },
  }, async (request) => {
    const { accountId, limit, cursor } = request.query
    const { cobvs, nextCursor } = sb.apiPixCobVs.page(accountId, limit ?? 100, cursor)
    return { cobvs: cobvs.map(({ charge, valorHoje }) => ({ ...views.cobv(charge), accountId: charge.accountId, chargeId: charge.id, valorHoje })), ...(nextCursor !== undefined ? { nextCursor } : {}) }
  })

  app.get('/cobv-batches', {
    schema: {
      operationId: 'sandboxListCobVBatches',
      tags: ['Sandbox'],
      summary: 'API Pix\'s batches of due charges (lotecobv), of every account or one, the last made first, a page at a time',
      description: 'Each as GET /lotecobv/{id} shows it (each request\'s txid, its status EM_PROCESSAMENTO, CRIADA or NEGADA, its problem once refused), with its account. ' +
        'At most limit (100 by default) per page; while older ones remain, nextCursor is the cursor of the next page (with the same accountId). A page costs the same whatever the number of batches.',
      querystring: SandboxLoteCobVListQuery,
      response: { 200: SandboxLoteCobVList },
    },
  }, async (request) => {
    const { accountId, limit, cursor } = request.query
    const { batches, nextCursor } = sb.cobvBatches.page(accountId, limit ?? 100, cursor)
    return { batches: batches.map(b => ({ ...sb.cobvBatches.view(b), accountId: b.accountId })), ...(nextCursor !== undefined ? { nextCursor } : {}) }
  })

  app.get('/api-pix-webhooks', {
    schema: {
      operationId: 'sandboxListApiPixWebhooks',
      tags: ['Sandbox'],
      summary: 'API Pix\'s webhooks (PUT /webhook/{chave}), of every account or one, the last made first, a page at a time',
      description: 'Each as GET /webhook/{chave} shows it, with its account and its callback (pix: the received PIX on the key, posted to {webhookUrl}/pix). ' +
        'At most limit (100 by default) per page; while older ones remain, nextCursor is the cursor of the next page (with the same accountId). A page costs the same whatever the number of webhooks.',
      querystring: SandboxApiPixWebhookListQuery,
      response: { 200: SandboxApiPixWebhookList },
    },
  }, async (request) => {
    const { accountId, limit, cursor } = request.query
    return sb.apiPixWebhooks.page(accountId, limit ?? 100, cursor)
  })
}

export default routes
