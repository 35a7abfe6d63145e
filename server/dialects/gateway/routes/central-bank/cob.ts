import type { RoutesPlugin } from '../../../../route-plugin.js'
import { errorResponses } from '../../../../schemas/common.js'
import { CobBody, CobParams, CobPatchBody, CobResponse } from '../../../../schemas/payins.js'
import { CobList, CobListQuery } from '../../../../schemas/central-bank.js'
import { appliedScenarios } from '../../../../applied-scenarios.js'
import { cobView, receivedPixViews } from '../../views.js'
import { CentralBankReads } from '../../../shared/central-bank-reads.js'
import type { TransactionOf } from '../../../../store/state.js'
import { SIMPLE } from '../../errors.js'

/**
 * PUT, GET and PATCH /cob/:txid (docs/gateway.md §2.8, 3.2, 7.7), POST and GET /cob (BACEN's API Pix). The
 * gateway does not show how a receiver revises or cancels a charge; the sandbox does it as BACEN's
 * API does: PATCH with the fields to change, or with status REMOVIDA_PELO_USUARIO_RECEBEDOR.
 */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox
  const view = (charge: TransactionOf<'COB'>) => cobView(sb, charge)
  const reads = new CentralBankReads({ store: sb.store, charges: { cobView: view, cobsOf: (accountId, created) => sb.charges.chargesOf(accountId, 'COB', created) }, refunds: sb.refunds, pix: receivedPixViews(sb.refunds), received: sb.receivedPix })

  app.put('/cob/:txid', {
    config: { auth: true, scope: 'cob.write' },
    schema: {
      operationId: 'createCob',
      tags: ['Central bank'],
      summary: 'Create an immediate charge (cob) with the caller\'s txid',
      description: 'Answers 201 with status ATIVA, revisao 0 and `location`, the EMV copy-and-paste code. 409 when the txid is already used by the account.',
      security: [{ bearer: [] }],
      params: CobParams,
      body: CobBody,
      response: { 201: CobResponse, ...errorResponses(SIMPLE, [400, 401, 409]) },
    },
  }, async (request, reply) => {
    const account = request.account!
    const scenarios = appliedScenarios(request, reply, 'cob', account.id)
    const charge = sb.charges.createCob(account, request.params.txid, request.body, scenarios)
    return reply.status(201).send(view(charge))
  })

  app.get('/cob/:txid', {
    config: { auth: true, scope: 'cob.read' },
    schema: {
      operationId: 'getCob',
      tags: ['Central bank'],
      summary: 'Read a charge (cob): its status and, once CONCLUIDA, the payment received (`pix`)',
      security: [{ bearer: [] }],
      params: CobParams,
      response: { 200: CobResponse, ...errorResponses(SIMPLE, [400, 401, 404]) },
    },
  }, async (request) => view(sb.charges.cob(request.account!, request.params.txid)))

  app.patch('/cob/:txid', {
    config: { auth: true, scope: 'cob.write' },
    schema: {
      operationId: 'reviseCob',
      tags: ['Central bank'],
      summary: 'Revise an ATIVA charge (cob), or cancel it with status REMOVIDA_PELO_USUARIO_RECEBEDOR',
      description: 'As BACEN\'s API: every field of the charge may be revised (calendario.expiracao, devedor, valor, chave, solicitacaoPagador, infoAdicionais); revisao goes up by 1 only when something really changed. The BR Code stays the same (it carries no amount) and pays the new value. 409 when the charge is no longer ATIVA.',
      security: [{ bearer: [] }],
      params: CobParams,
      body: CobPatchBody,
      response: { 200: CobResponse, ...errorResponses(SIMPLE, [400, 401, 404, 409]) },
    },
  }, async (request) => view(sb.charges.reviseCob(request.account!, request.params.txid, request.body)))

  app.post('/cob', {
    config: { auth: true, scope: 'cob.write' },
    schema: {
      operationId: 'createCobWithGeneratedTxid',
      tags: ['Central bank'],
      summary: 'Create an immediate charge (cob) whose txid the sandbox generates',
      description: 'BACEN\'s POST /cob: the same body and answer as PUT /cob/{txid}, with a 32-character txid chosen by the sandbox.',
      security: [{ bearer: [] }],
      body: CobBody,
      response: { 201: CobResponse, ...errorResponses(SIMPLE, [400, 401]) },
    },
  }, async (request, reply) => {
    const account = request.account!
    const scenarios = appliedScenarios(request, reply, 'cob', account.id)
    const charge = sb.charges.createCob(account, null, request.body, scenarios)
    return reply.status(201).send(view(charge))
  })

  app.get('/cob', {
    config: { auth: true, scope: 'cob.read' },
    schema: {
      operationId: 'listCobs',
      tags: ['Central bank'],
      summary: 'List the account\'s charges (cob) created between inicio and fim',
      description: 'BACEN\'s GET /cob: filters cpf or cnpj (of the devedor), status, locationPresente; paging with paginacao.paginaAtual (from 0) and paginacao.itensPorPagina (1-1000, default 100), echoed in parametros.paginacao. Oldest first.',
      security: [{ bearer: [] }],
      querystring: CobListQuery,
      response: { 200: CobList, ...errorResponses(SIMPLE, [400, 401]) },
    },
  }, async (request) => reads.cobs(request.account!, request.query))
}

export default routes
