import type { RoutesPlugin } from '../../../route-plugin.js'
import { appliedScenarios } from '../../../applied-scenarios.js'
import { errorResponses } from '../../../schemas/common.js'
import { RecBody, RecCompleta, RecGerada, RecList, RecListQuery, RecParams, RecPatchBody, RecQuery } from '../schemas/rec.js'
import type { ApiPixRoute } from './route.js'
import { apiPixViews } from '../views/index.js'
import { PROBLEM } from '../errors.js'
import { apiPixLists } from '../lists.js'

const WRITE: ApiPixRoute = { scope: 'rec.write', problems: { 400: 'RecOperacaoInvalida', 404: 'RecNaoEncontrada' }, entity: 'rec' }
const READ: ApiPixRoute = { scope: 'rec.read', problems: { 400: 'RecConsultaInvalida', 404: 'RecNaoEncontrada' } }

/** API Pix's recurrences of Pix Automático (tag Rec; docs/api-pix.md, Pix Automático). */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox
  const views = apiPixViews(sb)
  const lists = apiPixLists(sb)

  app.post('/rec', {
    config: { auth: true, apiPix: WRITE },
    schema: {
      operationId: 'apiPixCreateRec',
      tags: ['API Pix'],
      summary: 'Criar recorrência',
      description: 'RecSolicitada: a recurrence CRIADA, waiting for its payer (journey 1 through /solicrec; 2 and 3 through its location and code). `loc` names a location of /locrec serving no other recurrence. 400 RecOperacaoInvalida lists every violation.',
      body: RecBody,
      response: { 201: RecGerada, ...errorResponses(PROBLEM, [400, 403]) },
    },
  }, async (request, reply) => {
    const account = request.account!
    const rec = sb.recurrences.create(account, request.body, appliedScenarios(request, reply, 'rec', account.id))
    return reply.status(201).send(views.recGerada(rec))
  })

  app.get('/rec/:idRec', {
    config: { auth: true, apiPix: READ },
    schema: {
      operationId: 'apiPixGetRec',
      tags: ['API Pix'],
      summary: 'Consultar recorrência',
      description: 'RecCompleta: its status and history, the payer once approved, its confirmation requests. dadosQR: the code of journey 2 while a location serves it; with `txid`, the composite code of journey 3 (the immediate charge\'s code carrying the recurrence).',
      params: RecParams,
      querystring: RecQuery,
      response: { 200: RecCompleta, ...errorResponses(PROBLEM, [400, 403, 404]) },
    },
  }, async (request) => views.recCompleta(sb.recurrences.get(request.account!, request.params.idRec), request.query.txid))

  app.patch('/rec/:idRec', {
    config: { auth: true, apiPix: WRITE },
    schema: {
      operationId: 'apiPixReviseRec',
      tags: ['API Pix'],
      summary: 'Revisar recorrência',
      description: 'RecRevisada: loc and calendario.dataInicial while CRIADA, vinculo.devedor.nome, ativacao.dadosJornada.txid; status CANCELADA cancels (SLCR). Nothing on a recurrence REJEITADA, EXPIRADA or CANCELADA.',
      params: RecParams,
      body: RecPatchBody,
      response: { 200: RecGerada, ...errorResponses(PROBLEM, [400, 403, 404]) },
    },
  }, async (request) => views.recGerada(sb.recurrences.revise(request.account!, request.params.idRec, request.body)))

  app.get('/rec', {
    config: { auth: true, apiPix: READ },
    schema: {
      operationId: 'apiPixListRecs',
      tags: ['API Pix'],
      summary: 'Consultar lista de recorrências',
      description: 'Created between inicio and fim; filters cpf or cnpj (of the debtor), locationPresente, status, convenio; paging with paginacao.paginaAtual and paginacao.itensPorPagina. Oldest first.',
      querystring: RecListQuery,
      response: { 200: RecList, ...errorResponses(PROBLEM, [400, 403]) },
    },
  }, async (request) => {
    const { parametros, items } = lists.recs(request.account!, request.query)
    return { parametros, recs: items.map(views.recListed) }
  })
}

export default routes
