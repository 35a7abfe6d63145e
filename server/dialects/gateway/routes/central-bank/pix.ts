import type { RoutesPlugin } from '../../../../route-plugin.js'
import { errorResponses } from '../../../../schemas/common.js'
import { PixList, PixListQuery, PixParams } from '../../../../schemas/central-bank.js'
import { PixView } from '../../../../schemas/payins.js'
import { cobView, receivedPixViews } from '../../views.js'
import { CentralBankReads } from '../../../shared/central-bank-reads.js'
import { SIMPLE } from '../../errors.js'

/** GET /pix/:e2eid and GET /pix (BACEN's API Pix): the PIX the account received, with their devoluções. */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox
  const reads = new CentralBankReads({ store: sb.store, charges: { cobView: charge => cobView(sb, charge) }, refunds: sb.refunds, pix: receivedPixViews(sb.refunds), received: sb.receivedPix })

  app.get('/pix/:e2eid', {
    config: { auth: true, scope: 'pix.read' },
    schema: {
      operationId: 'getReceivedPix',
      tags: ['Central bank'],
      summary: 'Read a PIX the account received',
      description: 'BACEN\'s GET /pix/{e2eid}: a paid cash-in or cob, or a PIX that arrived without a charge; 404 for any other e2eid.',
      security: [{ bearer: [] }],
      params: PixParams,
      response: { 200: PixView, ...errorResponses(SIMPLE, [400, 401, 404]) },
    },
  }, async (request) => reads.received(request.account!, request.params.e2eid))

  app.get('/pix', {
    config: { auth: true, scope: 'pix.read' },
    schema: {
      operationId: 'listReceivedPix',
      tags: ['Central bank'],
      summary: 'List the PIX the account received between inicio and fim',
      description: 'BACEN\'s GET /pix: filters txid, txIdPresente, devolucaoPresente, cpf or cnpj (of the payer); paging with paginacao.paginaAtual (from 0) and paginacao.itensPorPagina (1-1000, default 100). Oldest first.',
      security: [{ bearer: [] }],
      querystring: PixListQuery,
      response: { 200: PixList, ...errorResponses(SIMPLE, [400, 401]) },
    },
  }, async (request) => reads.receivedList(request.account!, request.query))
}

export default routes
