import type { RoutesPlugin } from '../../../route-plugin.js'
import { errorResponses } from '../../../schemas/common.js'
import { LocBody, LocList, LocListQuery, LocParams, LocView } from '../schemas/loc.js'
import type { ApiPixRoute } from './route.js'
import { locationHost } from '../../shared/host.js'
import { PROBLEM } from '../errors.js'
import { apiPixLists } from '../lists.js'

const WRITE: ApiPixRoute = { scope: 'payloadlocation.write', problems: { 400: 'PayloadLocationOperacaoInvalida', 404: 'PayloadLocationNaoEncontrado' }, entity: 'loc' }
const READ: ApiPixRoute = { scope: 'payloadlocation.read', problems: { 400: 'PayloadLocationConsultaInvalida', 404: 'PayloadLocationNaoEncontrado' } }

/** API Pix's payload locations (tag PayloadLocation; docs/api-pix.md, loc). */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox
  const lists = apiPixLists(sb)

  app.post('/loc', {
    config: { auth: true, apiPix: WRITE },
    schema: {
      operationId: 'apiPixCreateLoc',
      tags: ['API Pix'],
      summary: 'Criar location do payload',
      description: 'A location serving no charge yet, for a cob (tipoCob cob) or a cobv to name by loc.id. Its URL is at the sandbox (--public-url, else the Host of this request).',
      body: LocBody,
      response: { 201: LocView, ...errorResponses(PROBLEM, [400, 403]) },
    },
  }, async (request, reply) => {
    const loc = sb.locations.create(request.account!, request.body.tipoCob, locationHost(request))
    // The created location's resource, as BACEN's answer names it in its Location header.
    return reply.status(201).header('location', `${sb.config.apiPixBasePath}/loc/${loc.id}`).send(sb.locations.view(loc))
  })

  app.get('/loc/:id', {
    config: { auth: true, apiPix: READ },
    schema: {
      operationId: 'apiPixGetLoc',
      tags: ['API Pix'],
      summary: 'Recuperar location do payload',
      description: 'With the txid of the charge it serves, while it serves one.',
      params: LocParams,
      response: { 200: LocView, ...errorResponses(PROBLEM, [403, 404]) },
    },
  }, async (request) => sb.locations.view(sb.locations.get(request.account!, request.params.id)))

  app.get('/loc', {
    config: { auth: true, apiPix: READ },
    schema: {
      operationId: 'apiPixListLocs',
      tags: ['API Pix'],
      summary: 'Consultar locations cadastradas',
      description: 'Created between inicio and fim; filters txIdPresente and tipoCob; paging with paginacao.paginaAtual and paginacao.itensPorPagina. Oldest first.',
      querystring: LocListQuery,
      response: { 200: LocList, ...errorResponses(PROBLEM, [400, 403]) },
    },
  }, async (request) => {
    const { parametros, items } = lists.locations(request.account!, request.query)
    return { parametros, loc: items.map(loc => sb.locations.view(loc)) }
  })

  app.delete('/loc/:id/txid', {
    config: { auth: true, apiPix: WRITE },
    schema: {
      operationId: 'apiPixUnbindLoc',
      tags: ['API Pix'],
      summary: 'Desvincular uma cobrança de uma location',
      description: 'The location serves no charge any more, and the charge shows no location (its status does not change; its code no longer pays). A location serving none answers as it is.',
      params: LocParams,
      response: { 200: LocView, ...errorResponses(PROBLEM, [403, 404]) },
    },
  }, async (request) => sb.locations.view(sb.locations.unbind(request.account!, request.params.id)))
}

export default routes
