import type { RoutesPlugin } from '../../../route-plugin.js'
import { appliedScenarios } from '../../../applied-scenarios.js'
import { errorResponses } from '../../../schemas/common.js'
import { ApiPixCobV, ApiPixCobVBody, ApiPixCobVList, ApiPixCobVListQuery, ApiPixCobVParams, ApiPixCobVPatchBody, ApiPixCobVQuery } from '../schemas/cobv.js'
import type { ApiPixRoute } from './route.js'
import { locationHost } from '../../shared/host.js'
import { apiPixViews } from '../views/index.js'
import { PROBLEM } from '../errors.js'
import { apiPixLists } from '../lists.js'

const WRITE: ApiPixRoute = { scope: 'cobv.write', problems: { 400: 'CobVOperacaoInvalida', 404: 'CobVNaoEncontrada' }, entity: 'cobv' }
const READ: ApiPixRoute = { scope: 'cobv.read', problems: { 400: 'CobVConsultaInvalida', 404: 'CobVNaoEncontrada' } }

/**
 * API Pix's due charges (tag CobV; docs/api-pix.md, cobv): PUT, PATCH, GET and the list. A cobv is a
 * charge of the account as a cob is, paid through the same paths, for the amount due on the day.
 */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox
  const views = apiPixViews(sb)
  const lists = apiPixLists(sb)

  app.put('/cobv/:txid', {
    config: { auth: true, apiPix: WRITE },
    schema: {
      operationId: 'apiPixCreateCobV',
      tags: ['API Pix'],
      summary: 'Criar cobrança com vencimento',
      description: 'CobVSolicitada: calendario.dataDeVencimento, devedor, valor.original and chave required; multa, juros, abatimento and desconto in every modalidade of API Pix. Served at <host>/qr/v2/cobv/<token>, or at the location loc.id names (the account\'s, tipoCob cobv, serving no other charge). On an existing ATIVA cobv, its fields are replaced (revisao + 1). 400 CobVOperacaoInvalida with every violation.',
      params: ApiPixCobVParams,
      body: ApiPixCobVBody,
      response: { 201: ApiPixCobV, ...errorResponses(PROBLEM, [400, 403]) },
    },
  }, async (request, reply) => {
    const account = request.account!
    const scenarios = appliedScenarios(request, reply, 'cob', account.id)
    const { charge } = sb.apiPixCobVs.put(account, request.params.txid, request.body, locationHost(request), { scenarios })
    return reply.status(201).send(views.cobv(charge))
  })

  app.patch('/cobv/:txid', {
    config: { auth: true, apiPix: WRITE },
    schema: {
      operationId: 'apiPixReviseCobV',
      tags: ['API Pix'],
      summary: 'Revisar cobrança com vencimento',
      description: 'CobVRevisada: each member given replaces the current one (calendario and valor member by member); revisao goes up by 1 on a real change. status REMOVIDA_PELO_USUARIO_RECEBEDOR removes the charge, alone. 400 CobVOperacaoInvalida when the charge is no longer ATIVA.',
      params: ApiPixCobVParams,
      body: ApiPixCobVPatchBody,
      response: { 200: ApiPixCobV, ...errorResponses(PROBLEM, [400, 403, 404]) },
    },
  }, async (request) => views.cobv(sb.apiPixCobVs.revise(request.account!, request.params.txid, request.body)))

  app.get('/cobv/:txid', {
    config: { auth: true, apiPix: READ },
    schema: {
      operationId: 'apiPixGetCobV',
      tags: ['API Pix'],
      summary: 'Consultar cobrança com vencimento',
      description: 'Its status and, once CONCLUIDA, the PIX received (`pix`). `revisao`, when given, must be the current revision.',
      params: ApiPixCobVParams,
      querystring: ApiPixCobVQuery,
      response: { 200: ApiPixCobV, ...errorResponses(PROBLEM, [400, 403, 404]) },
    },
  }, async (request) => views.cobv(sb.apiPixCobVs.get(request.account!, request.params.txid, request.query.revisao)))

  app.get('/cobv', {
    config: { auth: true, apiPix: READ },
    schema: {
      operationId: 'apiPixListCobVs',
      tags: ['API Pix'],
      summary: 'Consultar lista de cobranças com vencimento',
      description: 'Created between inicio and fim; filters cpf or cnpj (of the devedor), status, locationPresente, loteCobVId; paging with paginacao.paginaAtual and paginacao.itensPorPagina. Oldest first.',
      querystring: ApiPixCobVListQuery,
      response: { 200: ApiPixCobVList, ...errorResponses(PROBLEM, [400, 403]) },
    },
  }, async (request) => {
    const { parametros, items } = lists.cobvs(request.account!, request.query)
    return { parametros, cobs: items.map(views.cobv) }
  })
}

export default routes
