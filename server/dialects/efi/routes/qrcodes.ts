import type { RoutesPlugin } from '../../../route-plugin.js'
import { errorResponses } from '../../../schemas/common.js'
import { locationHost, payerScheme } from '../../shared/host.js'
import { LocParams, LocQrCode, QrCodeDetail, QrCodeDetailBody, ViewTokenParams } from '../schemas.js'
import { EFI_SHAPE, efiConfig, type EfiRoute } from '../errors.js'
import { chargePage, svgDataUri, type EfiQrCodes } from '../qrcodes.js'

const LOC_QRCODE: EfiRoute = { scope: 'payloadlocation.read' }
const DETAIL: EfiRoute = {
  scope: 'gn.qrcodes.read',
  problems: {
    400: { type: 'QrcodeOperacaoInvalida', title: 'Operação Inválida', detail: 'A requisição que busca detalhar um qrcode não respeita o schema ou está semanticamente errada.', propriedade: 'qrcode.pixCopiaECola' },
    422: { type: 'QrcodeOperacaoInvalida', title: 'Operação Inválida', detail: 'A requisição que busca detalhar um qrcode não respeita o schema ou está semanticamente errada.', propriedade: 'qrcode.pixCopiaECola' },
  },
}

/** Efí's QR code routes under the base path (docs/efi.md, QR codes); `prefix` is where the page of linkVisualizacao is. */
export const qrCodeRoutes = (qr: EfiQrCodes, prefix: string): RoutesPlugin => async (app) => {
  const sb = app.sandbox

  app.get('/loc/:id/qrcode', {
    config: efiConfig(LOC_QRCODE),
    schema: {
      operationId: 'efiLocQrCode',
      tags: ['Efí'],
      summary: 'Gerar QR Code de uma location',
      description: 'The BR Code of the charge the location serves, its image (an SVG data URI) and linkVisualizacao, a page of this sandbox that shows them (no token needed). 400 location_nao_encontrada for a location of another account or none; 400 location_sem_cobranca for one serving no charge.',
      security: [{ efiOAuth2: [LOC_QRCODE.scope] }],
      params: LocParams,
      response: { 200: LocQrCode },
    },
  }, async (request) => {
    const { code, token } = qr.located(request.account!, request.params.id)
    return { qrcode: code, imagemQrcode: await svgDataUri(code), linkVisualizacao: `${payerScheme(request)}://${locationHost(request)}${prefix}/gn/visualizar/${token}` }
  })

  // The page of linkVisualizacao: public, as a link a payer is sent is; HTML, so not an operation of the API.
  app.get('/gn/visualizar/:token', {
    schema: { hide: true, params: ViewTokenParams },
  }, async (request, reply) => {
    const found = qr.byToken(request.params.token)
    if (found === undefined) return reply.status(404).type('text/html; charset=utf-8').send('<!doctype html><title>Cobrança não encontrada</title><p>Cobrança não encontrada.</p>\n')
    const receiver = sb.store.account(found.charge.accountId)?.name ?? ''
    return reply.type('text/html; charset=utf-8').send(chargePage(found.charge, found.code, receiver, await svgDataUri(found.code)))
  })

  app.post('/gn/qrcodes/detalhar', {
    config: efiConfig(DETAIL),
    schema: {
      operationId: 'efiQrCodeDetail',
      tags: ['Efí'],
      summary: 'Detalhar QR Code Pix',
      description: 'What a dynamic BR Code of this sandbox (a cob or cobv of any account) asks: tipoCob, txid, calendario, status, devedor and recebedor with masked documents, valor.original and valor.final (the amount due now). 400 QrcodeOperacaoInvalida for a static code or a code of no charge here; 422 for a string that is no BR Code.',
      security: [{ efiOAuth2: [DETAIL.scope] }],
      body: QrCodeDetailBody,
      response: { 200: QrCodeDetail, ...errorResponses(EFI_SHAPE, [422]) },
    },
  }, async (request) => qr.detail(request.body.pixCopiaECola))
}
