import type { RoutesPlugin } from '../../../route-plugin.js'
import { errorResponses } from '../../../schemas/common.js'
import { ReportParams, ReportRequestBody, ReportStatus } from '../schemas.js'
import { EFI_SHAPE, efiConfig, type EfiRoute } from '../errors.js'
import type { EfiExtrato } from '../extrato.js'
import { Type } from '@sinclair/typebox'

const GN = 'https://api-pix.gerencianet.com.br/v2/gn/'
const REQUEST: EfiRoute = {
  scope: 'gn.reports.write',
  problems: { 400: { type: `${GN}ExtratoConciliacaoConsultaInvalida`, title: 'Consulta inválida', detail: 'Os parâmetros de consulta não respeitam o schema ou não fazem sentido semanticamente', propriedade: '.body' } },
}
const READ: EfiRoute = { scope: 'gn.reports.read', problems: { 404: { type: `${GN}NaoEncontrado`, title: 'Não encontrado' } } }

/** Efí's reconciliation report (docs/efi.md, Reconciliation report). */
export const extratoRoutes = (extrato: EfiExtrato): RoutesPlugin => async (app) => {
  app.post('/gn/relatorios/extrato-conciliacao', {
    config: efiConfig(REQUEST),
    schema: {
      operationId: 'efiRequestReport',
      tags: ['Efí'],
      summary: 'Solicitar extrato de conciliação',
      description: 'A CSV (Efí\'s layout v4.0) of a past São Paulo day (dataMovimento) with the record types asked in tipoRegistros: 202 AGUARDANDO_PROCESSAMENTO; 10 s of sandbox time later EM_PROCESSAMENTO, 30 s later CONCLUIDO. The same request again answers the same report.',
      security: [{ efiOAuth2: [REQUEST.scope] }],
      body: ReportRequestBody,
      response: { 202: ReportStatus },
    },
  }, async (request, reply) => reply.status(202).send(extrato.request(request.account!, request.body)))

  app.get('/gn/relatorios/:id', {
    config: efiConfig(READ),
    schema: {
      operationId: 'efiGetReport',
      tags: ['Efí'],
      summary: 'Baixar extrato de conciliação',
      description: 'The CSV (text/csv) once CONCLUIDO; 202 with its status before.',
      security: [{ efiOAuth2: [READ.scope] }],
      params: ReportParams,
      response: {
        200: Type.Unsafe<string>({ description: 'The report', content: { 'text/csv': { schema: { type: 'string' } } } }),
        202: ReportStatus,
        ...errorResponses(EFI_SHAPE, [404]),
      },
    },
  }, async (request, reply) => {
    const found = extrato.read(request.account!, request.params.id)
    if ('pending' in found) return reply.status(202).send(found.pending)
    return reply.type('text/csv; charset=utf-8').send(found.csv)
  })
}
