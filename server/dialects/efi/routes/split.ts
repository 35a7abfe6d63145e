import type { RoutesPlugin } from '../../../route-plugin.js'
import { errorResponses } from '../../../schemas/common.js'
import { SplitConfigBody, SplitConfigParams, SplitConfigQuery, SplitConfigView } from '../schemas.js'
import { EFI_SHAPE, efiConfig, type EfiRoute } from '../errors.js'
import type { EfiSplit } from '../split.js'

const CONFIG_WRITE: EfiRoute = {
  scope: 'gn.split.write',
  problems: {
    400: { type: 'SplitConfigOperacaoInvalida', title: 'Configuração de split inválida.', detail: 'A requisição que busca alterar ou criar uma configuração de split não respeita o schema ou está semanticamente errada.', propriedade: 'split.config' },
  },
}
const CONFIG_READ: EfiRoute = {
  scope: 'gn.split.read',
  problems: {
    400: { type: 'SplitConfigOperacaoInvalida', title: 'Configuração de split inválida.', detail: 'A requisição que busca consultar uma configuração de split não respeita o schema.', propriedade: 'split.config' },
    404: { type: 'SplitConfigNaoEncontrado', title: 'Configuração de split não encontrada.' },
  },
}

const RULES = 'Efí\'s rules (400 SplitConfigOperacaoInvalida, its razão in violacoes): lancamento.imediato true; every part (minhaParte and the 1 to 20 repasses) of one tipo; percentages adding up to 100.00; every value above zero; each favorecido.conta the accountNumber of another account of this sandbox, with its cpf or cnpj.'

/** Efí's split (docs/efi.md, Split): its configurations. */
export const splitRoutes = (split: EfiSplit): RoutesPlugin => async (app) => {
  app.post('/gn/split/config', {
    config: efiConfig(CONFIG_WRITE),
    schema: {
      operationId: 'efiCreateSplitConfig',
      tags: ['Efí'],
      summary: 'Criar configuração de split',
      description: `201: the configuration, its id chosen by the sandbox, revisao 0. ${RULES}`,
      security: [{ efiOAuth2: [CONFIG_WRITE.scope] }],
      body: SplitConfigBody,
      response: { 201: SplitConfigView },
    },
  }, async (request, reply) => reply.status(201).send(split.create(request.account!, request.body)))

  app.put('/gn/split/config/:id', {
    config: efiConfig(CONFIG_WRITE),
    schema: {
      operationId: 'efiPutSplitConfig',
      tags: ['Efí'],
      summary: 'Criar/alterar configuração de split com id',
      description: `201: a new configuration of this id (revisao 0), or its next revision; a charge already linked keeps the revision it was linked with. ${RULES}`,
      security: [{ efiOAuth2: [CONFIG_WRITE.scope] }],
      params: SplitConfigParams,
      body: SplitConfigBody,
      response: { 201: SplitConfigView },
    },
  }, async (request, reply) => reply.status(201).send(split.put(request.account!, request.params.id, request.body)))

  app.get('/gn/split/config/:id', {
    config: efiConfig(CONFIG_READ),
    schema: {
      operationId: 'efiGetSplitConfig',
      tags: ['Efí'],
      summary: 'Consultar configuração de split',
      description: 'The newest revision, or the one revisao names (404 SplitConfigNaoEncontrado for an id or revision the account does not have).',
      security: [{ efiOAuth2: [CONFIG_READ.scope] }],
      params: SplitConfigParams,
      querystring: SplitConfigQuery,
      response: { 200: SplitConfigView, ...errorResponses(EFI_SHAPE, [404]) },
    },
  }, async (request) => split.get(request.account!, request.params.id, request.query.revisao === undefined ? undefined : Number(request.query.revisao)))
}
