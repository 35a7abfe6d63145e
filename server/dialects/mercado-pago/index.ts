import type { Dialect } from '../types.js'
import { named } from '../../named-plugins.js'
import payments from './routes/payments.js'
import ticket from './routes/ticket.js'
import control from './routes/control.js'
import { MERCADO_PAGO_FAMILY, MercadoPagoError, PAYMENTS_PREFIX } from './errors.js'
import { MercadoPagoNotifier, mercadoPagoDeliveries } from './notifier.js'
import { mercadoPagoChecks, mercadoPagoFields } from './report.js'

/**
 * Mercado Pago's payments API for Pix (docs/mercado-pago.md): its routes under /v1/payments with the
 * account's access token, its ticket pages, its notifications signed with x-signature. A payment is a
 * charge of the sandbox (paid by its code, expired on the clock, refunded on the ledger).
 */
export const mercadoPago: Dialect = {
  name: 'mercado-pago',
  families: [MERCADO_PAGO_FAMILY],
  schemas: [MercadoPagoError],
  tags: () => [{ name: 'Mercado Pago', description: 'Mercado Pago\'s payments API for Pix (docs/mercado-pago.md): Authorization: Bearer <the account\'s mercadoPago.accessToken>; errors as Mercado Pago\'s' }],
  securitySchemes: () => ({ mercadoPagoToken: { type: 'http', scheme: 'bearer', description: 'The account\'s mercadoPago.accessToken (GET /__sandbox/accounts/:id)' } }),
  // Creation bends as a charge's (AUTO_PAY, PAYMENT_ERROR, the delivery faults), a refund as a refund-in's;
  // reads and the cancellation take the transport faults.
  scenarioEndpoints: {
    mercadoPagoCreatePayment: 'cash-in',
    mercadoPagoGetPayment: 'cob-query',
    mercadoPagoSearchPayments: 'cob-query',
    mercadoPagoUpdatePayment: 'cob-cancel',
    mercadoPagoCreateRefund: 'refund-in',
    mercadoPagoListRefunds: 'devolucao-query',
    mercadoPagoGetRefund: 'devolucao-query',
    mercadoPagoTicket: null,
  },
  // The Node SDK lists refunds at `/v1/payments/{id}/refunds/`: routed without the trailing slash.
  routingUrl: url => {
    if (!url.startsWith(`${PAYMENTS_PREFIX}/`)) return url
    const query = url.indexOf('?')
    const path = query === -1 ? url : url.slice(0, query)
    return path.endsWith('/refunds/') ? path.slice(0, -1) + (query === -1 ? '' : url.slice(query)) : url
  },
  register: async (app) => {
    await app.register(named('mercado-pago', payments))
    await app.register(named('mercado-pago-ticket', ticket))
  },
  controlPlane: control,
  deliveries: sb => mercadoPagoDeliveries(sb),
  notifier: sb => new MercadoPagoNotifier(sb),
  report: {
    title: 'Mercado Pago',
    grades: (_method, route) => route === PAYMENTS_PREFIX || route.startsWith(`${PAYMENTS_PREFIX}/`) ? { route, claim: PAYMENTS_PREFIX.length } : undefined,
    checks: mercadoPagoChecks,
    fields: mercadoPagoFields,
  },
}
