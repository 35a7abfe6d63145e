import type { RoutesPlugin } from '../../../route-plugin.js'
import { appliedScenarios } from '../../../applied-scenarios.js'
import { errorResponses } from '../../../schemas/common.js'
import { LoteCobVBody, LoteCobVList, LoteCobVListQuery, LoteCobVParams, LoteCobVPatchBody, LoteCobVView } from '../schemas/lotecobv.js'
import type { ApiPixRoute } from './route.js'
import { locationHost } from '../../shared/host.js'
import { PROBLEM } from '../errors.js'
import { apiPixLists } from '../lists.js'

const WRITE: ApiPixRoute = { scope: 'lotecobv.write', problems: { 400: 'LoteCobVOperacaoInvalida', 404: 'LoteCobVNaoEncontrado' }, entity: 'loteCobV' }
const READ: ApiPixRoute = { scope: 'lotecobv.read', problems: { 400: 'LoteCobVConsultaInvalida', 404: 'LoteCobVNaoEncontrado' } }

/**
 * API Pix's batches of due charges (tag LoteCobV; docs/api-pix.md, lotecobv). A write answers 202 at
 * once; the batch's requests are EM_PROCESSAMENTO until the scheduler processes them.
 */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox
  const lists = apiPixLists(sb)

  app.put('/lotecobv/:id', {
    config: { auth: true, apiPix: WRITE },
    schema: {
      operationId: 'apiPixPutLoteCobV',
      tags: ['API Pix'],
      summary: 'Criar/Alterar lote de cobranças com vencimento',
      description: 'descricao and cobsv (CobVSolicitada with its txid, each). 202: the requests are EM_PROCESSAMENTO, then CRIADA or NEGADA (with the problem PUT /cobv/{txid} would answer) once processed, settlementDelayMs of sandbox time later. A new batch: none of its txids may be a charge already, nor in another batch. An existing batch: exactly the same txids, each request processed again. 400 LoteCobVOperacaoInvalida otherwise.',
      params: LoteCobVParams,
      body: LoteCobVBody,
      response: { 202: { description: 'accepted for processing', type: 'null' }, ...errorResponses(PROBLEM, [400, 403]) },
    },
  }, async (request, reply) => {
    const account = request.account!
    const scenarios = appliedScenarios(request, reply, 'cob', account.id)
    sb.cobvBatches.put(account, request.params.id, request.body, locationHost(request), scenarios)
    return reply.status(202).send()
  })

  app.patch('/lotecobv/:id', {
    config: { auth: true, apiPix: WRITE },
    schema: {
      operationId: 'apiPixReviseLoteCobV',
      tags: ['API Pix'],
      summary: 'Revisar cobranças específicas de um lote de cobranças com vencimento',
      description: 'cobsv: CobVRevisada with its txid, for some of the batch\'s cobvs (no other). 202: each is EM_PROCESSAMENTO, then processed as PATCH /cobv/{txid} (a request whose cobv was never created is NEGADA, CobVNaoEncontrada).',
      params: LoteCobVParams,
      body: LoteCobVPatchBody,
      response: { 202: { description: 'accepted for processing', type: 'null' }, ...errorResponses(PROBLEM, [400, 403, 404]) },
    },
  }, async (request, reply) => {
    sb.cobvBatches.revise(request.account!, request.params.id, request.body)
    return reply.status(202).send()
  })

  app.get('/lotecobv/:id', {
    config: { auth: true, apiPix: READ },
    schema: {
      operationId: 'apiPixGetLoteCobV',
      tags: ['API Pix'],
      summary: 'Consultar um lote de cobranças com vencimento',
      description: 'Each request\'s txid and status (EM_PROCESSAMENTO, CRIADA, NEGADA), with its problema once refused.',
      params: LoteCobVParams,
      response: { 200: LoteCobVView, ...errorResponses(PROBLEM, [400, 403, 404]) },
    },
  }, async (request) => sb.cobvBatches.view(sb.cobvBatches.get(request.account!, request.params.id)))

  app.get('/lotecobv', {
    config: { auth: true, apiPix: READ },
    schema: {
      operationId: 'apiPixListLoteCobV',
      tags: ['API Pix'],
      summary: 'Consultar lotes de cobranças com vencimento',
      description: 'Created between inicio and fim; paging with paginacao.paginaAtual and paginacao.itensPorPagina. Oldest first.',
      querystring: LoteCobVListQuery,
      response: { 200: LoteCobVList, ...errorResponses(PROBLEM, [400, 403]) },
    },
  }, async (request) => {
    const { parametros, items } = lists.batches(request.account!, request.query)
    return { parametros, lotes: items.map(b => sb.cobvBatches.view(b)) }
  })
}

export default routes
