import type { RoutesPlugin } from '../../../route-plugin.js'
import type { Static } from '@sinclair/typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { appliedScenarios } from '../../../applied-scenarios.js'
import { errorResponses } from '../../../schemas/common.js'
import { ApiPixCob, ApiPixCobBody, ApiPixCobList, ApiPixCobListQuery, ApiPixCobParams, ApiPixCobPatchBody, ApiPixCobQuery } from '../schemas/cob.js'
import type { ApiPixRoute } from './route.js'
import { locationHost } from '../../shared/host.js'
import { apiPixViews } from '../views/index.js'
import { CentralBankReads } from '../../shared/central-bank-reads.js'
import { PROBLEM } from '../errors.js'

const WRITE: ApiPixRoute = { scope: 'cob.write', problems: { 400: 'CobOperacaoInvalida', 404: 'CobNaoEncontrado' }, entity: 'cob' }
const READ: ApiPixRoute = { scope: 'cob.read', problems: { 400: 'CobConsultaInvalida', 404: 'CobNaoEncontrado' } }

/**
 * API Pix's immediate charges (tag Cob): PUT, POST, PATCH, GET and the list, over the same records as
 * the gateway's /cob (docs/api-pix.md, cob), each shown in API Pix's shape.
 */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox
  const views = apiPixViews(sb)
  const reads = new CentralBankReads({ store: sb.store, charges: { cobView: views.cob, hasLocation: charge => sb.apiPixCobs.hasLocation(charge), cobsOf: (accountId, created) => sb.charges.chargesOf(accountId, 'COB', created) }, refunds: sb.refunds, pix: views.receivedPix, received: sb.receivedPix })

  /** PUT and POST: the charge, at the location its body names or at a new one, 201 as API Pix shows it. */
  const create = (request: FastifyRequest, reply: FastifyReply, txid: string | null, body: Static<typeof ApiPixCobBody>) => {
    const account = request.account!
    const scenarios = appliedScenarios(request, reply, 'cob', account.id)
    const charge = sb.apiPixCobs.create(account, txid, body, scenarios, locationHost(request))
    return reply.status(201).send(views.cob(charge))
  }

  app.put('/cob/:txid', {
    config: { auth: true, apiPix: WRITE },
    schema: {
      operationId: 'apiPixCreateCob',
      tags: ['API Pix'],
      summary: 'Criar cobrança imediata (the caller\'s txid)',
      description: 'CobSolicitada: valor and chave required (calendario too in the schema, but not in API Pix\'s own examples; expiracao 86400 when absent). Served at the location loc.id names (the account\'s, tipoCob cob, serving no other charge) or at a new one. 400 CobOperacaoInvalida for a txid in use.',
      params: ApiPixCobParams,
      body: ApiPixCobBody,
      response: { 201: ApiPixCob, ...errorResponses(PROBLEM, [400, 403]) },
    },
  }, async (request, reply) => create(request, reply, request.params.txid, request.body))

  app.post('/cob', {
    config: { auth: true, apiPix: WRITE },
    schema: {
      operationId: 'apiPixCreateCobWithGeneratedTxid',
      tags: ['API Pix'],
      summary: 'Criar cobrança imediata (a txid the sandbox chooses)',
      description: 'As PUT /cob/{txid}, with a 32-character txid chosen by the sandbox.',
      body: ApiPixCobBody,
      response: { 201: ApiPixCob, ...errorResponses(PROBLEM, [400, 403]) },
    },
  }, async (request, reply) => create(request, reply, null, request.body))

  app.patch('/cob/:txid', {
    config: { auth: true, apiPix: WRITE },
    schema: {
      operationId: 'apiPixReviseCob',
      tags: ['API Pix'],
      summary: 'Revisar cobrança imediata',
      description: 'CobRevisada: any field; revisao goes up by 1 on a real change. status REMOVIDA_PELO_USUARIO_RECEBEDOR cancels, alone. 400 CobOperacaoInvalida when the charge is no longer ATIVA.',
      params: ApiPixCobParams,
      body: ApiPixCobPatchBody,
      response: { 200: ApiPixCob, ...errorResponses(PROBLEM, [400, 403, 404]) },
    },
  }, async (request) => views.cob(sb.apiPixCobs.revise(request.account!, request.params.txid, request.body)))

  app.get('/cob/:txid', {
    config: { auth: true, apiPix: READ },
    schema: {
      operationId: 'apiPixGetCob',
      tags: ['API Pix'],
      summary: 'Consultar cobrança imediata',
      description: 'Its status and, once CONCLUIDA, the PIX received (`pix`). `revisao`, when given, must be the current revision.',
      params: ApiPixCobParams,
      querystring: ApiPixCobQuery,
      response: { 200: ApiPixCob, ...errorResponses(PROBLEM, [400, 403, 404]) },
    },
  }, async (request) => views.cob(sb.apiPixCobs.get(request.account!, request.params.txid, request.query.revisao)))

  app.get('/cob', {
    config: { auth: true, apiPix: READ },
    schema: {
      operationId: 'apiPixListCobs',
      tags: ['API Pix'],
      summary: 'Consultar lista de cobranças imediatas',
      description: 'Created between inicio and fim; filters cpf or cnpj (of the devedor), status, locationPresente; paging with paginacao.paginaAtual and paginacao.itensPorPagina. Oldest first. The cobs of the gateway are listed too.',
      querystring: ApiPixCobListQuery,
      response: { 200: ApiPixCobList, ...errorResponses(PROBLEM, [400, 403]) },
    },
  }, async (request) => reads.cobs(request.account!, request.query))
}

export default routes
