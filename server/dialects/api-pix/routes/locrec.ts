import type { RoutesPlugin } from '../../../route-plugin.js'
import { errorResponses } from '../../../schemas/common.js'
import { LocRecList, LocRecListQuery, LocRecParams, LocRecView } from '../schemas/rec.js'
import type { ApiPixRoute } from './route.js'
import { locationHost } from '../../shared/host.js'
import { apiPixViews } from '../views/index.js'
import { PROBLEM } from '../errors.js'
import { apiPixLists } from '../lists.js'

const WRITE: ApiPixRoute = { scope: 'payloadlocationrec.write', problems: { 404: 'PayloadLocationRecNaoEncontrado' } }
const READ: ApiPixRoute = { scope: 'payloadlocationrec.read', problems: { 400: 'PayloadLocationRecConsultaInvalida', 404: 'PayloadLocationRecNaoEncontrado' } }

/** API Pix's locations of recurrences (tag PayloadLocationRec; docs/api-pix.md, Pix Automático). */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox
  const views = apiPixViews(sb)
  const lists = apiPixLists(sb)

  app.post('/locrec', {
    config: { auth: true, apiPix: WRITE },
    schema: {
      operationId: 'apiPixCreateLocRec',
      tags: ['API Pix'],
      summary: 'Criar location do payload de recorrência',
      description: 'A location <host>/qr/v2/rec/<token> serving no recurrence yet, for a recurrence to name by `loc` (POST or PATCH /rec).',
      response: { 201: LocRecView, ...errorResponses(PROBLEM, [403]) },
    },
  }, async (request, reply) => {
    const loc = sb.recurrences.createLocation(request.account!, locationHost(request))
    return reply.status(201).header('location', `${sb.config.apiPixBasePath}/locrec/${loc.id}`).send(views.recLocation(loc))
  })

  app.get('/locrec/:id', {
    config: { auth: true, apiPix: READ },
    schema: {
      operationId: 'apiPixGetLocRec',
      tags: ['API Pix'],
      summary: 'Recuperar location do payload de recorrência',
      description: 'With the idRec of the recurrence it serves, while it serves one.',
      params: LocRecParams,
      response: { 200: LocRecView, ...errorResponses(PROBLEM, [403, 404]) },
    },
  }, async (request) => views.recLocation(sb.recurrences.location(request.account!, request.params.id)))

  app.get('/locrec', {
    config: { auth: true, apiPix: READ },
    schema: {
      operationId: 'apiPixListLocRecs',
      tags: ['API Pix'],
      summary: 'Consultar locations de recorrência cadastradas',
      description: 'Created between inicio and fim; filters idRecPresente and convenio; paging. Oldest first.',
      querystring: LocRecListQuery,
      response: { 200: LocRecList, ...errorResponses(PROBLEM, [400, 403]) },
    },
  }, async (request) => {
    const { parametros, items } = lists.recLocations(request.account!, request.query)
    return { parametros, loc: items.map(views.recLocation) }
  })

  app.delete('/locrec/:id/idRec', {
    config: { auth: true, apiPix: WRITE },
    schema: {
      operationId: 'apiPixUnbindLocRec',
      tags: ['API Pix'],
      summary: 'Desvincular uma recorrência de uma location',
      description: 'The location serves no recurrence any more, and the recurrence shows no location (its status does not change). A location serving none answers as it is.',
      params: LocRecParams,
      response: { 200: LocRecView, ...errorResponses(PROBLEM, [403, 404]) },
    },
  }, async (request) => views.recLocation(sb.recurrences.unbindLocation(request.account!, request.params.id)))
}

export default routes
