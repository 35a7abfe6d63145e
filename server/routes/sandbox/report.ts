import type { RoutesPlugin } from '../../route-plugin.js'
import { errorResponses } from '../../schemas/common.js'
import { ReportProbeBody, ReportQuery, ReportView } from '../../schemas/report.js'
import { WebhookTestAnswer, withDeliveryEventTypes } from '../../schemas/webhooks.js'
import { SANDBOX_SHAPE } from './errors.js'

/** /__sandbox/report: the integration report and its bad-signature probe. */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox

  app.get('/report', {
    schema: {
      operationId: 'sandboxReport',
      tags: ['Sandbox'],
      summary: 'Grade an account\'s integration against a PSP\'s homologation checks',
      description: 'Each check is passed, failed (with the request, delivery and transaction ids that show why) or not_exercised, and names the section of docs/gateway.md it comes from. Reads what the account did: its requests (the newest 1,000), the delivery log and its transactions. Changes nothing.',
      querystring: ReportQuery,
      response: { 200: ReportView, ...errorResponses(SANDBOX_SHAPE, [404]) },
    },
  }, async (request) => sb.report.report(request.query.accountId))

  app.post('/report/probe', {
    schema: {
      operationId: 'sandboxReportProbe',
      tags: ['Sandbox'],
      summary: 'Send the account\'s receivers a webhook with a bad signature (the report checks that it is refused)',
      description: 'A sample event of eventType (default: the first type with an active webhook) carrying the WEBHOOK_BAD_SIGNATURE fault, to the registrations of its type and, for a dialect\'s own type, to the account\'s webhooks of it (API Pix\'s callbacks pix, cobr, rec; Mercado Pago\'s mercado_pago_payment to its notification URL): sent once, not retried. 409 when the account has neither for it.',
      body: withDeliveryEventTypes(ReportProbeBody, sb.deliveries.types),
      response: { 202: WebhookTestAnswer, ...errorResponses(SANDBOX_SHAPE, [404, 409]) },
    },
  }, async (request, reply) => {
    const deliveries = sb.report.probe(request.body.accountId, request.body.eventType)
    return reply.status(202).send({ eventId: deliveries[0].eventId, deliveries })
  })
}

export default routes
