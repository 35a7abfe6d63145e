import type { RoutesPlugin } from '../../../route-plugin.js'
import { errorResponses } from '../../../schemas/common.js'
import { appliedScenarios } from '../../../applied-scenarios.js'
import { centsToString } from '../../../domain/money.js'
import { E2eParams, EnvioParams, PixQrCodePayBody, PixSendBody, PixSent, PixSentDetail, PixSentList, PixSentListQuery } from '../schemas.js'
import { EFI_SHAPE, efiConfig, type EfiRoute } from '../errors.js'
import type { Envio } from '../views.js'
import type { Envios, SendRoute } from '../envios.js'

const SEND: EfiRoute = { scope: 'pix.send' }
const SAME_OWNER: EfiRoute = { scope: 'gn.pix.sameownership.send' }
const QR_PAY: EfiRoute = {
  scope: 'gn.qrcodes.pay',
  problems: {
    400: { type: 'QrcodeOperacaoInvalida', title: 'Operação Inválida', detail: 'A requisição que busca pagar um qrcode não respeita o schema ou está semanticamente errada.', propriedade: 'qrcode.pagador' },
  },
}
const SENT_READ: EfiRoute = { scope: 'gn.pix.send.read', problems: { 404: { type: 'PixEnviadoNaoEncontrado', title: 'Não Encontrado' } } }

/** The 201 of every pay-out: EM_PROCESSAMENTO, its e2eId under both names the SDKs read. */
function sent (tx: Envio) {
  const e2e = tx.endToEndId ?? ''
  return { idEnvio: tx.externalId ?? '', e2eId: e2e, endToEndId: e2e, valor: centsToString(tx.amountCents), horario: { solicitacao: tx.createdAt }, status: 'EM_PROCESSAMENTO' as const }
}

const SEND_DESCRIPTION = 'From pagador.chave (a key of the account with an API Pix webhook, PUT /v2/webhook/:chave) to favorecido.chave (a key the directory lists; cpf/cnpj checked against its holder) or favorecido.contaBanco. ' +
  'Reserves valor + fee and answers EM_PROCESSAMENTO; the payer key\'s webhook hears REALIZADO or NAO_REALIZADO at {webhookUrl}/pix. A reused idEnvio is 409 id_envio_duplicado and debits nothing. ' +
  'The cash-out scenarios apply (X-Sandbox-Scenario).'

const SEND_ERRORS = errorResponses(EFI_SHAPE, [404, 409, 422])

/** One pay-out route of a key or account data: `route` says how it differs. */
const sendRoute = (envios: Envios, url: string, route: SendRoute, operationId: string, summary: string): RoutesPlugin => async (app) => {
  app.put(url, {
    config: efiConfig(route === 'mesma-titularidade' ? SAME_OWNER : SEND),
    schema: {
      operationId,
      tags: ['Efí'],
      summary,
      description: route === 'mesma-titularidade' ? `${SEND_DESCRIPTION} The favorecido must have the account's own document.` : SEND_DESCRIPTION,
      security: [{ efiOAuth2: [route === 'mesma-titularidade' ? SAME_OWNER.scope : SEND.scope] }],
      params: EnvioParams,
      body: PixSendBody,
      response: { 201: PixSent, ...SEND_ERRORS },
    },
  }, async (request, reply) => {
    const account = request.account!
    const scenarios = appliedScenarios(request, reply, 'cash-out', account.id)
    return reply.status(201).send(sent(envios.send(account, request.params.idEnvio, request.body, route, scenarios)))
  })
}

/** PUT /v3/gn/pix/:idEnvio (sdk-node-apis-efi's pixSend), under the v3 prefix. */
export const v3Sends = (envios: Envios): RoutesPlugin => sendRoute(envios, '/gn/pix/:idEnvio', 'v3', 'efiPixSend', 'Requisitar envio de Pix (v3)')

/** Efí's pay-outs under /v2 (docs/efi.md, Pay-outs): v2 (gn-api-sdk-node), same ownership, QR code; and the reads of what was sent. */
export const v2Sends = (envios: Envios): RoutesPlugin => async (app) => {
  await app.register(sendRoute(envios, '/gn/pix/:idEnvio', 'v2', 'efiPixSendLegacy', 'Requisitar envio de Pix (v2, as gn-api-sdk-node calls it)'))
  await app.register(sendRoute(envios, '/gn/pix/:idEnvio/mesma-titularidade', 'mesma-titularidade', 'efiPixSendSameOwnership', 'Requisitar envio de Pix de mesma titularidade'))

  app.put('/gn/pix/:idEnvio/qrcode', {
    config: efiConfig(QR_PAY),
    schema: {
      operationId: 'efiPixQrCodePay',
      tags: ['Efí'],
      summary: 'Pagar QR Code Pix',
      description: 'Pays a BR Code for its own amount: a code of this sandbox (a cob, cobv or cash-in of any account) pays that charge and credits its receiver, as the gateway\'s cash-out by QR code does. ' +
        'Same payer-key, webhook and idEnvio rules as PUT /v3/gn/pix/:idEnvio; refusals of the code are 400 QrcodeOperacaoInvalida. The cash-out-qrcode scenarios apply.',
      security: [{ efiOAuth2: [QR_PAY.scope] }],
      params: EnvioParams,
      body: PixQrCodePayBody,
      response: { 201: PixSent, ...errorResponses(EFI_SHAPE, [409, 422, 500]) },
    },
  }, async (request, reply) => {
    const account = request.account!
    const scenarios = appliedScenarios(request, reply, 'cash-out-qrcode', account.id)
    return reply.status(201).send(sent(envios.payCode(account, request.params.idEnvio, request.body, scenarios)))
  })

  app.get('/gn/pix/enviados/:e2eId', {
    config: efiConfig(SENT_READ),
    schema: {
      operationId: 'efiPixSentDetail',
      tags: ['Efí'],
      summary: 'Consultar Pix enviado (e2eId)',
      description: 'A pay-out of Efí\'s routes by its endToEndId: EM_PROCESSAMENTO, REALIZADO or NAO_REALIZADO; `chave` is the payer\'s key. 404 PixEnviadoNaoEncontrado for any other.',
      security: [{ efiOAuth2: [SENT_READ.scope] }],
      params: E2eParams,
      response: { 200: PixSentDetail, ...errorResponses(EFI_SHAPE, [404]) },
    },
  }, async (request) => envios.view(envios.byEndToEndId(request.account!, request.params.e2eId)))

  app.get('/gn/pix/enviados/id-envio/:idEnvio', {
    config: efiConfig(SENT_READ),
    schema: {
      operationId: 'efiPixSentDetailByIdEnvio',
      tags: ['Efí'],
      summary: 'Consultar Pix enviado (idEnvio)',
      description: 'A pay-out of Efí\'s routes by its idEnvio. 404 PixEnviadoNaoEncontrado for any other.',
      security: [{ efiOAuth2: [SENT_READ.scope] }],
      params: EnvioParams,
      response: { 200: PixSentDetail, ...errorResponses(EFI_SHAPE, [404]) },
    },
  }, async (request) => envios.view(envios.byIdEnvio(request.account!, request.params.idEnvio)))

  app.get('/gn/pix/enviados', {
    config: efiConfig(SENT_READ),
    schema: {
      operationId: 'efiPixSentList',
      tags: ['Efí'],
      summary: 'Consultar lista de Pix enviados',
      description: 'The account\'s pay-outs of Efí\'s routes asked between inicio and fim, oldest first; filters status (CONCLUIDA reads as REALIZADO), cpf or cnpj of the favorecido, devolucaoPresente; paging with paginacao.paginaAtual and paginacao.itensPorPagina.',
      security: [{ efiOAuth2: [SENT_READ.scope] }],
      querystring: PixSentListQuery,
      response: { 200: PixSentList },
    },
  }, async (request) => envios.list(request.account!, request.query))
}
