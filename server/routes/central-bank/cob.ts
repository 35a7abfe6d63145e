import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { errorResponses } from '../../schemas/common.js'
import { CobBody, CobParams, CobPatchBody, CobResponse } from '../../schemas/payins.js'

/**
 * PUT, GET and PATCH /cob/:txid (docs/gateway.md §2.8, 3.2, 7.7). The spec does not show how a receiver cancels
 * a charge; the sandbox does it as BACEN's API does: PATCH with status REMOVIDA_PELO_USUARIO_RECEBEDOR.
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  const sb = app.sandbox

  app.put('/cob/:txid', {
    config: { auth: true },
    schema: {
      operationId: 'createCob',
      tags: ['Central bank'],
      summary: 'Create an immediate charge (cob) with the caller\'s txid',
      description: 'Answers 201 with status ATIVA, revisao 0 and `location`, the EMV copy-and-paste code. 409 when the txid is already used by the account.',
      security: [{ bearer: [] }],
      params: CobParams,
      body: CobBody,
      response: { 201: CobResponse, ...errorResponses('simple', [400, 401, 409]) },
    },
  }, async (request, reply) => {
    const account = request.account!
    const scenarios = sb.scenarios.resolve(request, reply, 'cob', account.id)
    const charge = sb.charges.createCob(account, request.params.txid, request.body, scenarios)
    return reply.status(201).send(sb.charges.cobView(charge))
  })

  app.get('/cob/:txid', {
    config: { auth: true },
    schema: {
      operationId: 'getCob',
      tags: ['Central bank'],
      summary: 'Read a charge (cob): its status and, once CONCLUIDA, the payment received (`pix`)',
      security: [{ bearer: [] }],
      params: CobParams,
      response: { 200: CobResponse, ...errorResponses('simple', [400, 401, 404]) },
    },
  }, async (request) => sb.charges.cobView(sb.charges.cob(request.account!, request.params.txid)))

  app.patch('/cob/:txid', {
    config: { auth: true },
    schema: {
      operationId: 'cancelCob',
      tags: ['Central bank'],
      summary: 'Cancel an ATIVA charge (status REMOVIDA_PELO_USUARIO_RECEBEDOR)',
      description: 'Sandbox decision (the spec does not show the operation): as BACEN\'s API, a PATCH that sets the status; revisao goes up by 1. 409 when the charge is no longer ATIVA.',
      security: [{ bearer: [] }],
      params: CobParams,
      body: CobPatchBody,
      response: { 200: CobResponse, ...errorResponses('simple', [400, 401, 404, 409]) },
    },
  }, async (request) => {
    const charge = sb.charges.cancelCob(request.account!, request.params.txid)
    return sb.charges.cobView(charge)
  })
}

export default routes
