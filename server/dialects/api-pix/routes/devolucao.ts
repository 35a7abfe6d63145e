import type { RoutesPlugin } from '../../../route-plugin.js'
import { appliedScenarios } from '../../../applied-scenarios.js'
import { errorResponses } from '../../../schemas/common.js'
import { ApiPixDevolucao, ApiPixDevolucaoBody, ApiPixDevolucaoParams, ApiPixDevolucaoReadParams } from '../schemas/pix.js'
import type { ApiPixRoute } from './route.js'
import { devolucaoView } from '../../shared/bacen.js'
import { PROBLEM } from '../errors.js'

const WRITE: ApiPixRoute = { scope: 'pix.write', problems: { 400: 'PixDevolucaoInvalida' }, entity: 'devolucao' }
const READ: ApiPixRoute = { scope: 'pix.read', problems: { 404: 'PixDevolucaoNaoEncontrada' } }

/**
 * API Pix's devoluções of a received PIX (tag Pix; docs/api-pix.md, devolução): the gateway's
 * records and settlement (EM_PROCESSAMENTO, then DEVOLVIDO or NAO_REALIZADO on the scheduler), on API
 * Pix's rules.
 */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox

  app.put('/pix/:e2eid/devolucao/:id', {
    config: { auth: true, apiPix: WRITE },
    schema: {
      operationId: 'apiPixCreateDevolucao',
      tags: ['API Pix'],
      summary: 'Solicitar devolução',
      description: 'DevolucaoSolicitada: valor (what is left of the PIX at most), natureza ORIGINAL (RETIRADA only of a Pix Saque or Troco, which the sandbox never receives), descricao. 201 EM_PROCESSAMENTO with the amount reserved; then DEVOLVIDO or NAO_REALIZADO. 400 PixDevolucaoInvalida for an id in use, after 90 days, or beyond the available balance.',
      params: ApiPixDevolucaoParams,
      body: ApiPixDevolucaoBody,
      response: { 201: ApiPixDevolucao, ...errorResponses(PROBLEM, [400, 403, 404]) },
    },
  }, async (request, reply) => {
    const account = request.account!
    const scenarios = appliedScenarios(request, reply, 'devolucao', account.id)
    const refund = sb.apiPixPix.devolucao(account, request.params.e2eid, request.params.id, request.body, scenarios)
    return reply.status(201).send(devolucaoView(refund))
  })

  app.get('/pix/:e2eid/devolucao/:id', {
    config: { auth: true, apiPix: READ },
    schema: {
      operationId: 'apiPixGetDevolucao',
      tags: ['API Pix'],
      summary: 'Consultar devolução',
      description: 'A devolução of a PIX the account received; 404 PixDevolucaoNaoEncontrada for any other.',
      params: ApiPixDevolucaoReadParams,
      response: { 200: ApiPixDevolucao, ...errorResponses(PROBLEM, [403, 404]) },
    },
  }, async (request) => devolucaoView(sb.apiPixPix.devolucaoOf(request.account!, request.params.e2eid, request.params.id)))
}

export default routes
