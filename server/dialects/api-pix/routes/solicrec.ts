import type { RoutesPlugin } from '../../../route-plugin.js'
import { errorResponses } from '../../../schemas/common.js'
import { SolicRecBody, SolicRecParams, SolicRecPatchBody, SolicRecView } from '../schemas/rec.js'
import type { ApiPixRoute } from './route.js'
import { apiPixViews } from '../views/index.js'
import { PROBLEM } from '../errors.js'

const WRITE: ApiPixRoute = { scope: 'solicrec.write', problems: { 400: 'SolicRecOperacaoInvalida', 404: 'SolicRecNaoEncontrada' }, entity: 'solicrec' }
const READ: ApiPixRoute = { scope: 'solicrec.read', problems: { 404: 'SolicRecNaoEncontrada' } }

/** API Pix's confirmation requests of journey 1 (tag SolicRec; docs/api-pix.md, Pix Automático). */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox
  const views = apiPixViews(sb)

  app.post('/solicrec', {
    config: { auth: true, apiPix: WRITE },
    schema: {
      operationId: 'apiPixCreateSolicRec',
      tags: ['API Pix'],
      summary: 'Criar solicitação de confirmação de recorrência',
      description: 'A request CRIADA for a CRIADA recurrence with no other request waiting; on the virtual clock it is ENVIADA, RECEBIDA, then answered as the simulated payer behaves (ACEITA approves the recurrence, REJEITADA rejects it), or EXPIRADA at dataExpiracaoSolicitacao.',
      body: SolicRecBody,
      response: { 201: SolicRecView, ...errorResponses(PROBLEM, [400, 403, 404]) },
    },
  }, async (request, reply) => reply.status(201).send(views.solicRec(sb.recurrences.request(request.account!, request.body))))

  app.get('/solicrec/:idSolicRec', {
    config: { auth: true, apiPix: READ },
    schema: {
      operationId: 'apiPixGetSolicRec',
      tags: ['API Pix'],
      summary: 'Consultar solicitação de confirmação de recorrência',
      params: SolicRecParams,
      response: { 200: SolicRecView, ...errorResponses(PROBLEM, [403, 404]) },
    },
  }, async (request) => views.solicRec(sb.recurrences.solicitation(request.account!, request.params.idSolicRec)))

  app.patch('/solicrec/:idSolicRec', {
    config: { auth: true, apiPix: WRITE },
    schema: {
      operationId: 'apiPixReviseSolicRec',
      tags: ['API Pix'],
      summary: 'Revisar solicitação de confirmação de recorrência',
      description: 'status CANCELADA cancels a request CRIADA, ENVIADA or RECEBIDA; its recurrence stays CRIADA, for another request. 201, as the reference writes it.',
      params: SolicRecParams,
      body: SolicRecPatchBody,
      response: { 201: SolicRecView, ...errorResponses(PROBLEM, [400, 403, 404]) },
    },
  }, async (request, reply) => reply.status(201).send(views.solicRec(sb.recurrences.cancelSolicitation(request.account!, request.params.idSolicRec, request.body))))
}

export default routes
