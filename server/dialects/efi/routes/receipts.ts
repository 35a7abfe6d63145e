import { Type } from '@sinclair/typebox'
import type { RoutesPlugin } from '../../../route-plugin.js'
import { errorResponses } from '../../../schemas/common.js'
import { ReceiptQuery } from '../schemas.js'
import { EFI_SHAPE, efiConfig, type EfiRoute } from '../errors.js'
import type { EfiReceipts } from '../receipts.js'

const RECEIPT: EfiRoute = {
  scope: 'gn.receipts.read',
  problems: {
    400: { type: 'ComprovanteConsultaInvalida', title: 'Consulta inválida' },
    404: { type: 'ComprovanteNaoEncontrado', title: 'Não encontrado' },
  },
}

/** GET /v2/gn/pix/comprovantes (docs/efi.md, Receipts). */
export const receiptRoutes = (receipts: EfiReceipts): RoutesPlugin => async (app) => {
  app.get('/gn/pix/comprovantes', {
    config: efiConfig(RECEIPT),
    schema: {
      operationId: 'efiGetReceipt',
      tags: ['Efí'],
      summary: 'Consultar comprovante Pix',
      description: 'A one-page PDF receipt of a PIX the account sent (e2eid or idEnvio; once settled), received (e2eid, or the txid of the charge it paid) or a devolução it received on a pay-out (rtrId): exactly one of them. Errors as JSON problem details: 400 ComprovanteConsultaInvalida, 404 ComprovanteNaoEncontrado.',
      security: [{ efiOAuth2: [RECEIPT.scope] }],
      querystring: ReceiptQuery,
      response: {
        200: Type.Unsafe<Buffer>({ description: 'The receipt', content: { 'application/pdf': { schema: { type: 'string', description: 'the bytes of a PDF' } } } }),
        ...errorResponses(EFI_SHAPE, [404]),
      },
    },
  }, async (request, reply) => {
    const { name, pdf } = receipts.receipt(request.account!, request.query)
    return reply.type('application/pdf').header('content-disposition', `attachment; filename="${name}"`).send(pdf)
  })
}
