import type { RoutesPlugin } from '../../../route-plugin.js'
import { errorResponses } from '../../../schemas/common.js'
import { ApiPixPix, ApiPixPixList, ApiPixPixListQuery, ApiPixPixParams } from '../schemas/pix.js'
import type { ApiPixRoute } from './route.js'
import { apiPixViews } from '../views/index.js'
import { CentralBankReads } from '../../shared/central-bank-reads.js'
import { PROBLEM } from '../errors.js'

const READ: ApiPixRoute = { scope: 'pix.read', problems: { 400: 'PixConsultaInvalida', 404: 'PixNaoEncontrado' } }

/**
 * API Pix's received PIX (tag Pix; docs/api-pix.md, pix): GET /pix/{e2eid} and the list, over the
 * records the gateway's GET /pix reads, each shown as API Pix's `Pix`.
 */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox
  const views = apiPixViews(sb)
  const reads = new CentralBankReads({ store: sb.store, charges: { cobView: views.cob }, refunds: sb.refunds, pix: views.receivedPix, received: sb.receivedPix })

  app.get('/pix/:e2eid', {
    config: { auth: true, apiPix: READ },
    schema: {
      operationId: 'apiPixGetPix',
      tags: ['API Pix'],
      summary: 'Consultar Pix',
      description: 'A PIX the account received (a paid cob, cash-in or a PIX without a charge) with its devoluções; txid and chave only for a PIX that paid a cob. 404 PixNaoEncontrado for any other e2eid.',
      params: ApiPixPixParams,
      response: { 200: ApiPixPix, ...errorResponses(PROBLEM, [403, 404]) },
    },
  }, async (request) => reads.received(request.account!, request.params.e2eid))

  app.get('/pix', {
    config: { auth: true, apiPix: READ },
    schema: {
      operationId: 'apiPixListPix',
      tags: ['API Pix'],
      summary: 'Consultar Pix recebidos',
      description: 'Received between inicio and fim (horario); filters txid (26 to 35 characters), txIdPresente, devolucaoPresente, cpf or cnpj (of the payer); paging with paginacao.paginaAtual and paginacao.itensPorPagina. Oldest first.',
      querystring: ApiPixPixListQuery,
      response: { 200: ApiPixPixList, ...errorResponses(PROBLEM, [400, 403]) },
    },
  }, async (request) => reads.receivedList(request.account!, request.query))
}

export default routes
