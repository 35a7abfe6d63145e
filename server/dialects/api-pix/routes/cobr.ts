import type { RoutesPlugin } from '../../../route-plugin.js'
import { appliedScenarios } from '../../../applied-scenarios.js'
import { errorResponses } from '../../../schemas/common.js'
import { CobRBody, CobRList, CobRListQuery, CobRParams, CobRPatchBody, CobRRetryParams, CobRView } from '../schemas/cobr.js'
import type { ApiPixRoute } from './route.js'
import { apiPixViews } from '../views/index.js'
import { PROBLEM } from '../errors.js'
import { apiPixLists } from '../lists.js'

const WRITE: ApiPixRoute = { scope: 'cobr.write', problems: { 400: 'CobROperacaoInvalida', 404: 'CobRNaoEncontrado' }, entity: 'cobr' }
const READ: ApiPixRoute = { scope: 'cobr.read', problems: { 400: 'CobRConsultaInvalida', 404: 'CobRNaoEncontrado' } }

/**
 * API Pix's recurring charges (tag CobR; docs/api-pix.md, "Recurring charges"): one per cycle of an
 * approved recurrence, debited on its date by the simulated payer on the virtual clock, retried, cancelled.
 */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox
  const views = apiPixViews(sb)
  const lists = apiPixLists(sb)

  app.put('/cobr/:txid', {
    config: { auth: true, apiPix: WRITE },
    schema: {
      operationId: 'apiPixCreateCobR',
      tags: ['API Pix'],
      summary: 'Criar cobrança recorrente (the caller\'s txid)',
      description: 'CobRSolicitada: idRec (an APROVADA recurrence of the account), calendario.dataDeVencimento (at least 2 days ahead, within the recurrence\'s term, one charge per cycle), valor.original (the recurrence\'s valorRec when fixed), recebedor. CRIADA; the payer\'s PSP receives it 10 days before its due date and activates it. 400 CobROperacaoInvalida with every violation.',
      params: CobRParams,
      body: CobRBody,
      response: { 201: CobRView, ...errorResponses(PROBLEM, [400, 403]) },
    },
  }, async (request, reply) => {
    const account = request.account!
    const cobr = sb.cobrs.create(account, request.params.txid, request.body, appliedScenarios(request, reply, 'cobr', account.id))
    return reply.status(201).send(views.cobr(cobr))
  })

  app.post('/cobr', {
    config: { auth: true, apiPix: WRITE },
    schema: {
      operationId: 'apiPixCreateCobRWithGeneratedTxid',
      tags: ['API Pix'],
      summary: 'Criar cobrança recorrente (a txid the sandbox chooses)',
      description: 'As PUT /cobr/{txid}, with a 32-character txid chosen by the sandbox.',
      body: CobRBody,
      response: { 201: CobRView, ...errorResponses(PROBLEM, [400, 403]) },
    },
  }, async (request, reply) => {
    const account = request.account!
    const cobr = sb.cobrs.create(account, null, request.body, appliedScenarios(request, reply, 'cobr', account.id))
    return reply.status(201).send(views.cobr(cobr))
  })

  app.patch('/cobr/:txid', {
    config: { auth: true, apiPix: WRITE },
    schema: {
      operationId: 'apiPixReviseCobR',
      tags: ['API Pix'],
      summary: 'Revisar cobrança recorrente',
      description: 'CobRRevisada: status CANCELADA cancels the charge and its pending attempt, before the date of its first attempt (400 CobROperacaoInvalida on or after it, or once the charge is closed).',
      params: CobRParams,
      body: CobRPatchBody,
      response: { 200: CobRView, ...errorResponses(PROBLEM, [400, 403, 404]) },
    },
  }, async (request) => views.cobr(sb.cobrs.revise(request.account!, request.params.txid, request.body)))

  app.get('/cobr/:txid', {
    config: { auth: true, apiPix: READ },
    schema: {
      operationId: 'apiPixGetCobR',
      tags: ['API Pix'],
      summary: 'Consultar cobrança recorrente',
      description: 'Its status and history, its attempts (tentativas) and, once CONCLUIDA, the PIX received (pix).',
      params: CobRParams,
      response: { 200: CobRView, ...errorResponses(PROBLEM, [403, 404]) },
    },
  }, async (request) => views.cobr(sb.cobrs.get(request.account!, request.params.txid)))

  app.get('/cobr', {
    config: { auth: true, apiPix: READ },
    schema: {
      operationId: 'apiPixListCobRs',
      tags: ['API Pix'],
      summary: 'Consultar lista de cobranças recorrentes',
      description: 'Created between inicio and fim; filters idRec, cpf or cnpj (the recurrence\'s debtor), status, convenio (the recurrence\'s); paging with paginacao.paginaAtual and paginacao.itensPorPagina. Oldest first.',
      querystring: CobRListQuery,
      response: { 200: CobRList, ...errorResponses(PROBLEM, [400, 403]) },
    },
  }, async (request) => {
    const { parametros, items } = lists.cobrs(request.account!, request.query)
    return { parametros, cobsr: items.map(views.cobr) }
  })

  app.post('/cobr/:txid/retentativa/:data', {
    config: { auth: true, apiPix: WRITE },
    schema: {
      operationId: 'apiPixRetryCobR',
      tags: ['API Pix'],
      summary: 'Solicitar retentativa de cobrança',
      description: 'A retry (NTAG) on data, after a failed attempt, when the recurrence\'s politicaRetentativa is PERMITE_3R_7D: at most 3, each on its own date, from the day after the first attempt\'s date up to 7 days after it and before the next cycle, none while an attempt is pending. 201 with the charge and its attempts.',
      params: CobRRetryParams,
      response: { 201: CobRView, ...errorResponses(PROBLEM, [400, 403, 404]) },
    },
  }, async (request, reply) => {
    const account = request.account!
    const { txid, data } = request.params
    const cobr = sb.cobrs.retry(account, txid, data, appliedScenarios(request, reply, 'cobr-retry', account.id))
    return reply.status(201).send(views.cobr(cobr))
  })
}

export default routes
