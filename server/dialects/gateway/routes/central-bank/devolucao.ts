import type { RoutesPlugin } from '../../../../route-plugin.js'
import { errorResponses } from '../../../../schemas/common.js'
import { DevolucaoBody, DevolucaoParams, DevolucaoView } from '../../../../schemas/payins.js'
import { appliedScenarios } from '../../../../applied-scenarios.js'
import { devolucaoView } from '../../../shared/bacen.js'
import { SIMPLE } from '../../errors.js'

/** PUT and GET /pix/:e2eid/devolucao/:id (docs/gateway.md §2.9, 3.3, 7.8). */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox

  app.put('/pix/:e2eid/devolucao/:id', {
    config: { auth: true, scope: 'pix.write' },
    schema: {
      operationId: 'createDevolucao',
      tags: ['Central bank'],
      summary: 'Refund a received PIX (devolução)',
      description: 'Answers 201 EM_PROCESSAMENTO with the amount reserved; then DEVOLVIDO (horario.liquidacao, refund_in webhook) or NAO_REALIZADO with motivo. 409 when the id is already used for that e2eid; 422 after 89 days or without available balance.',
      security: [{ bearer: [] }],
      params: DevolucaoParams,
      body: DevolucaoBody,
      response: { 201: DevolucaoView, ...errorResponses(SIMPLE, [400, 401, 404, 409, 422]) },
    },
  }, async (request, reply) => {
    const account = request.account!
    const scenarios = appliedScenarios(request, reply, 'devolucao', account.id)
    const refund = sb.refunds.devolucao(account, request.params.e2eid, request.params.id, request.body, scenarios)
    return reply.status(201).send(devolucaoView(refund))
  })

  app.get('/pix/:e2eid/devolucao/:id', {
    config: { auth: true, scope: 'pix.read' },
    schema: {
      operationId: 'getDevolucao',
      tags: ['Central bank'],
      summary: 'Read a devolução',
      security: [{ bearer: [] }],
      params: DevolucaoParams,
      response: { 200: DevolucaoView, ...errorResponses(SIMPLE, [400, 401, 404]) },
    },
  }, async (request) => devolucaoView(sb.refunds.devolucaoOf(request.account!, request.params.e2eid, request.params.id)))
}

export default routes
