import { Type } from '@sinclair/typebox'
import type { RoutesPlugin } from '../../../route-plugin.js'
import { errorResponses } from '../../../schemas/common.js'
import { appliedScenarios } from '../../../applied-scenarios.js'
import { Refusal } from '../../../errors/refusal.js'
import { hasScenario } from '../../../../scenarios/resolver.js'
import { DefesaBody, InfracaoParams, InfracoesList, InfracoesQuery } from '../schemas.js'
import { EFI_SHAPE, efiConfig, type EfiRoute } from '../errors.js'
import type { EfiMed } from '../med.js'

const LIST: EfiRoute = {
  scope: 'gn.infractions.read',
  problems: {
    400: { type: 'InfracoesConsultaInvalida', title: 'Consulta inválida', detail: 'Os parâmetros de consulta não respeitam o schema ou não fazem sentido semanticamente.', propriedade: 'infracoes.query' },
    500: { type: 'InfracaoErroInterno', title: 'Erro interno' },
  },
}
const OPERATION_INVALID = { type: 'InfracaoOperacaoInvalida', title: 'Operação inválida', detail: 'A requisição que busca apresentar uma defesa de infração não respeita o schema ou está semanticamente errada.', propriedade: 'body.infractionId' }
const DEFENCE: EfiRoute = {
  scope: 'gn.infractions.write',
  problems: {
    400: { type: 'InfracoesConsultaInvalida', title: 'Consulta inválida', detail: 'A requisição que busca apresentar uma defesa de infração não respeita o schema ou está semanticamente errada.', propriedade: 'infracoes.body' },
    404: { type: 'InfracaoNaoEncontrada', title: 'Não encontrado' },
    409: OPERATION_INVALID,
    422: OPERATION_INVALID,
  },
}

/** Efí's MED routes (docs/efi.md, MED) over the sandbox's MED cases. */
export const medRoutes = (med: EfiMed): RoutesPlugin => async (app) => {
  app.get('/gn/infracoes', {
    config: efiConfig(LIST),
    schema: {
      operationId: 'efiListInfracoes',
      tags: ['Efí'],
      summary: 'Listar infrações MED',
      description: 'The MED cases opened (POST /__sandbox/med) on PIX the account received between inicio and fim, oldest first, as Efí\'s infrações: ABERTA, EM_DEFESA (contested), ACEITA, REJEITADA, CANCELADA_EFI. Paging with paginacao.paginaAtual and paginacao.itensPorPagina.',
      security: [{ efiOAuth2: [LIST.scope] }],
      querystring: InfracoesQuery,
      response: { 200: InfracoesList, ...errorResponses(EFI_SHAPE, [500]) },
    },
  }, async (request, reply) => {
    // INTERNAL_ERROR, as on the gateway's GET /api/med: Efí's own 500 of the route.
    if (hasScenario(appliedScenarios(request, reply, 'med-list', request.account!.id), 'INTERNAL_ERROR')) throw new Refusal('INTERNAL_ERROR', 'Ocorreu um erro interno ao obter a listagem de infrações.')
    return med.list(request.account!, request.query)
  })

  app.post('/gn/infracoes/:idInfracao/defesa', {
    config: efiConfig(DEFENCE),
    schema: {
      operationId: 'efiDefendInfracao',
      tags: ['Efí'],
      summary: 'Criar defesa de infração MED',
      description: '201, no body. analise aceito: the account accepts the claim, the case is approved and the PIX goes back (a devolução MED, on the ledger and in the webhooks); rejeitado: it contests it (EM_DEFESA) and the requesting bank decides (POST /__sandbox/med/:id/transition). Once: a second defence is 409 InfracaoOperacaoInvalida; after the 7 days of the case, 422.',
      security: [{ efiOAuth2: [DEFENCE.scope] }],
      params: InfracaoParams,
      body: DefesaBody,
      response: { 201: Type.Unsafe<undefined>({ type: 'null', description: 'created, no body' }), ...errorResponses(EFI_SHAPE, [404, 409, 422]) },
    },
  }, async (request, reply) => {
    const account = request.account!
    med.defend(account, request.params.idInfracao, request.body, [])
    return reply.status(201).send()
  })
}
