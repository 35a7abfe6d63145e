import type { Dialect } from '../types.js'
import { named } from '../../named-plugins.js'
import standardRoutes from './routes/standard/index.js'
import centralBankRoutes from './routes/central-bank/index.js'
import { CENTRAL_BANK, ExtendedError, SimpleError, STANDARD } from './errors.js'
import { GatewayNotifier } from './notifier.js'
import { gatewayChecks } from './report.js'
import { gatewaySamples } from './samples.js'
import { GATEWAY_EVENT_TYPES } from '../../store/state.js'

/**
 * The gateway (docs/gateway.md): its two families on one base URL, the standard one under /api (and
 * /balance) and the central-bank-compatible one without a prefix, over the sandbox's records.
 */
export const gateway: Dialect = {
  name: 'gateway',
  families: [STANDARD, CENTRAL_BANK],
  schemas: [SimpleError, ExtendedError],
  tags: () => [
    { name: 'Standard', description: 'Standard family (/api), extended error shape' },
    { name: 'Central bank', description: 'Central-bank-compatible family, simple error shape' },
  ],
  // Where the scenarios of each operation apply (scenarios/catalogue.ts), by operationId.
  scenarioEndpoints: {
    createToken: 'token',
    getBalance: 'balance',
    getApiBalance: 'balance',
    getBalances: 'balances',
    cashOut: 'cash-out',
    cashOutQrCode: 'cash-out-qrcode',
    dictTransfer: 'dict-pix',
    cashIn: 'cash-in',
    createCob: 'cob',
    createCobWithGeneratedTxid: 'cob',
    getCob: 'cob-query',
    listCobs: 'cob-query',
    // PATCH /cob/{txid}: a revision, a cancellation among them
    reviseCob: 'cob-cancel',
    getReceivedPix: 'pix-query',
    listReceivedPix: 'pix-query',
    refundIn: 'refund-in',
    createDevolucao: 'devolucao',
    getDevolucao: 'devolucao-query',
    listMed: 'med-list',
    registerWebhook: 'webhook-config',
    listWebhooks: 'webhook-config',
  },
  register: async app => {
    await app.register(named('standard', standardRoutes))
    await app.register(named('central-bank', centralBankRoutes))
  },
  // Its events go to the registrations of their type (docs/gateway.md §6.1).
  deliveries: () => Object.fromEntries(GATEWAY_EVENT_TYPES.map(t => [t, { sample: gatewaySamples[t] }])),
  notifier: sb => new GatewayNotifier({ store: sb.store, clock: sb.clock, webhooks: sb.webhooks }),
  report: {
    title: 'gateway',
    // docs/gateway.md §4: its routes under /api (and /balance) and its central-bank-compatible ones.
    grades: (_method, route) => {
      if (route.startsWith('/api/')) return { route, claim: '/api/'.length }
      if (route === '/balance' || route === '/accounts/balances' || route === '/dict/pix' || route === '/cob' || route === '/pix') return { route, claim: route.length }
      return route.startsWith('/cob/') || route.startsWith('/pix/') ? { route, claim: 5 } : undefined
    },
    checks: gatewayChecks,
  },
}
