import { Type, type Static } from '@sinclair/typebox'
import type { RoutesPlugin } from '../../../route-plugin.js'
import { appliedScenarios } from '../../../applied-scenarios.js'
import { errorResponses } from '../../../schemas/common.js'
import { DevolucaoBody, DevolucaoParams, DevolucaoView } from '../../../schemas/payins.js'
import { devolucaoView } from '../../shared/bacen.js'
import { SplitCharge, SplitChargeParams, SplitConfigBody, SplitConfigParams, SplitConfigQuery, SplitConfigView, SplitLinkParams, SplitUnlinkParams } from '../schemas.js'
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

const LINK: EfiRoute = {
  scope: 'gn.split.write',
  problems: {
    400: { type: 'SplitOperacaoInvalida', title: 'Operação inválida.', detail: 'A requisição que busca alterar ou criar um vínculo entre cobrança e configuração de split não respeita o schema ou está semanticamente errada.' },
    404: { type: 'SplitNaoEncontrado', title: 'Não encontrado.' },
  },
}
const UNLINK: EfiRoute = {
  scope: 'gn.split.write',
  problems: {
    400: { type: 'SplitOperacaoInvalida', title: 'Operação inválida.', detail: 'A requisição que busca remover um vínculo entre cobrança e configuração de split não respeita o schema ou está semanticamente errada.' },
    404: { type: 'SplitNaoEncontrado', title: 'Não encontrado.' },
  },
}
const DETAIL: EfiRoute = {
  scope: 'gn.split.read',
  problems: {
    400: { type: 'SplitOperacaoInvalida', title: 'Operação inválida.', detail: 'A requisição que busca consultar uma cobrança com split não respeita o schema.' },
    404: { type: 'CobrancaSplitNaoEncontrada', title: 'Não encontrado.' },
  },
}

const NO_BODY = Type.Unsafe<undefined>({ type: 'null', description: 'no body' })

/** Efí's split linked to its cobs and cobvs (docs/efi.md, Split): the same routes under each. */
export const splitChargeRoutes = (split: EfiSplit): RoutesPlugin => async (app) => {
  for (const [kind, path, name, label] of [['COB', 'cob', 'Charge', 'cobrança'], ['COBV', 'cobv', 'DueCharge', 'cobrança com vencimento']] as const) {
    app.put(`/gn/split/${path}/:txid/vinculo/:splitConfigId`, {
      config: efiConfig(LINK),
      schema: {
        operationId: `efiSplitLink${name}`,
        tags: ['Efí'],
        summary: `Vincular uma ${label} a uma configuração de split`,
        description: `204, no body (an empty form or JSON body is accepted). The ${path} must be ATIVA; it takes the configuration's newest revision (a later PUT of the configuration leaves it on this one) and replaces any link it had; with every part fixo, their sum must be the charge's value. When the ${path} is paid, each repasse is paid out of the receiver's balance and credited to its favorecido account as a received PIX, and the /pix callback carries gnExtras.split.`,
        security: [{ efiOAuth2: [LINK.scope] }],
        params: SplitLinkParams,
        response: { 204: NO_BODY, ...errorResponses(EFI_SHAPE, [404]) },
      },
    }, async (request, reply) => {
      split.link(request.account!, kind, request.params.txid, request.params.splitConfigId)
      return reply.status(204).send()
    })

    const unlink = {
      config: efiConfig(UNLINK),
      schema: {
        tags: ['Efí'],
        summary: `Desvincular uma ${label} de sua configuração de split`,
        description: `200, no body. The ${path} must be ATIVA and linked (404 SplitNaoEncontrado otherwise); its repasses are dropped.`,
        security: [{ efiOAuth2: [UNLINK.scope] }],
        response: { 200: NO_BODY, ...errorResponses(EFI_SHAPE, [404]) },
      },
    }
    app.delete<{ Params: Static<typeof SplitUnlinkParams> }>(`/gn/split/${path}/:txid/vinculo`, { ...unlink, schema: { ...unlink.schema, operationId: `efiSplitUnlink${name}`, params: SplitUnlinkParams } }, async (request, reply) => {
      split.unlink(request.account!, kind, request.params.txid)
      return reply.status(200).send()
    })
    app.delete<{ Params: Static<typeof SplitLinkParams> }>(`/gn/split/${path}/:txid/vinculo/:splitConfigId`, {
      ...unlink,
      schema: {
        ...unlink.schema,
        operationId: `efiSplitUnlink${name}ById`,
        description: `As DELETE /gn/split/${path}/:txid/vinculo: sdk-node-apis-efi sends this path with its placeholder unfilled (the literal ":splitConfigId"), which is accepted; any other id must be the linked configuration's.`,
        params: Type.Object({ txid: SplitLinkParams.properties.txid, splitConfigId: Type.String({ minLength: 1, maxLength: 35, description: 'The linked configuration\'s id, or the literal ":splitConfigId"' }) }),
      },
    }, async (request, reply) => {
      split.unlink(request.account!, kind, request.params.txid, request.params.splitConfigId)
      return reply.status(200).send()
    })

    app.get(`/gn/split/${path}/:txid`, {
      config: efiConfig(DETAIL),
      schema: {
        operationId: `efiSplitDetail${name}`,
        tags: ['Efí'],
        summary: `Consultar ${label} com split`,
        description: `The ${path}'s txid, status and value, the configuration revision it is linked to, and each repasse of it; 404 CobrancaSplitNaoEncontrada for a charge the account does not have or one with no link.`,
        security: [{ efiOAuth2: [DETAIL.scope] }],
        params: SplitChargeParams,
        response: { 200: SplitCharge, ...errorResponses(EFI_SHAPE, [404]) },
      },
    }, async (request) => split.linked(request.account!, kind, request.params.txid))
  }
}

const DEVOLUCAO: EfiRoute = {
  scope: 'gn.pix.write',
  problems: {
    400: { type: 'PixDevolucaoInvalida', title: 'Devolução inválida' },
    404: { type: 'SplitNaoEncontrado', title: 'Não encontrado.' },
  },
}

/** Efí's devolução of a split PIX (docs/efi.md, Split): API Pix's devolução, of a PIX of a linked charge only. */
export const splitDevolucaoRoutes = (split: EfiSplit): RoutesPlugin => async (app) => {
  app.put('/gn/split/pix/:e2eid/devolucao/:id', {
    config: efiConfig(DEVOLUCAO),
    schema: {
      operationId: 'efiSplitDevolucao',
      tags: ['Efí'],
      summary: 'Solicitar devolução de um Pix com split',
      description: 'As PUT /v2/pix/:e2eid/devolucao/:id (its body, rules and answer: 201 EM_PROCESSAMENTO, then DEVOLVIDO or NAO_REALIZADO; 400 PixDevolucaoInvalida), of a PIX that paid a cob or cobv linked to a split configuration; any other PIX is 404 SplitNaoEncontrado. The receiver returns the amount from its own balance; the repasses already paid stay paid.',
      security: [{ efiOAuth2: [DEVOLUCAO.scope] }],
      params: DevolucaoParams,
      body: DevolucaoBody,
      response: { 201: DevolucaoView, ...errorResponses(EFI_SHAPE, [400, 404]) },
    },
  }, async (request, reply) => {
    const account = request.account!
    const scenarios = appliedScenarios(request, reply, 'devolucao', account.id)
    const refund = split.devolucao(account, request.params.e2eid, request.params.id, request.body, scenarios)
    return reply.status(201).send(devolucaoView(refund))
  })
}
