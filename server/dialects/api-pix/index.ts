import { ConfigError } from '../../config.js'
import { API_PIX_SCOPES, OAUTH_TOKEN_PATH } from '../../domain/scopes.js'
import type { Dialect } from '../types.js'
import { named } from '../../named-plugins.js'
import apiPixRoutes, { apiPixRoutingUrl, baseCollision } from './routes/index.js'
import apiPixToken from './routes/oauth.js'
import apiPixPayloads from './routes/payload.js'
import { API_PIX, ApiPixProblem, OAuthError } from './errors.js'
import { ApiPixNotifier } from './notifier.js'
import { chargeViewDeps } from './views/index.js'
import { apiPixChecks } from './report.js'
import { apiPixSamples } from './samples.js'
import { API_PIX_CALLBACKS } from '../../store/state.js'

/**
 * BACEN's API Pix 2.9.0 (docs/api-pix.md): its OAuth token and its payload locations at the root, every
 * other operation under its base path (`--api-pix-base-path`), over the same records as the gateway.
 */
export const apiPix: Dialect = {
  name: 'api-pix',
  families: [API_PIX],
  schemas: [ApiPixProblem, OAuthError],
  tags: config => [
    { name: 'API Pix', description: `BACEN's API Pix 2.9.0 under its base path (${config.apiPixBasePath} here), with OAuth; problem details on errors` },
  ],
  securitySchemes: () => ({
    oauth2: {
      type: 'oauth2',
      description: 'BACEN\'s API Pix: client credentials with HTTP Basic and the client certificate (POST /oauth/token); a token of POST /api/auth/token carries the account\'s whole grant',
      flows: { clientCredentials: { tokenUrl: '/oauth/token', scopes: Object.fromEntries(API_PIX_SCOPES.map(s => [s, `API Pix: ${s.endsWith('.read') ? 'read' : 'change'} ${s.slice(0, s.lastIndexOf('.'))}`])) } },
    },
  }),
  // Where the scenarios of each operation apply (scenarios/catalogue.ts), by operationId.
  scenarioEndpoints: {
  // Its token and its cob as the gateway's, its locations the
  // transport faults; the payloads and their key, documents a payer's PSP reads without a token and
  // no account's operations, take none (null).
    apiPixToken: 'token',
    apiPixCreateCob: 'cob',
    apiPixCreateCobWithGeneratedTxid: 'cob',
    apiPixGetCob: 'cob-query',
    apiPixListCobs: 'cob-query',
    apiPixReviseCob: 'cob-cancel',
    apiPixCreateLoc: 'loc',
    apiPixGetLoc: 'loc',
    apiPixListLocs: 'loc',
    apiPixUnbindLoc: 'loc',
    apiPixPayload: null,
    apiPixJwks: null,
    // Pix Automático (docs/api-pix.md, Pix Automático): a recurrence's creation takes the payer's PSP
    // scenarios; its reads, revisions and confirmation requests the transport faults; its locations as
    // loc's, its webhook as the gateway's registrations; its payload, read without a token, none.
    apiPixCreateRec: 'rec',
    apiPixGetRec: 'rec-query',
    apiPixListRecs: 'rec-query',
    apiPixReviseRec: 'rec-revise',
    apiPixCreateSolicRec: 'rec-revise',
    apiPixGetSolicRec: 'rec-query',
    apiPixReviseSolicRec: 'rec-revise',
    apiPixCreateLocRec: 'loc',
    apiPixGetLocRec: 'loc',
    apiPixListLocRecs: 'loc',
    apiPixUnbindLocRec: 'loc',
    apiPixRecPayload: null,
    apiPixPutWebhookRec: 'webhook-config',
    apiPixGetWebhookRec: 'webhook-config',
    apiPixDeleteWebhookRec: 'webhook-config',
    // Its recurring charges: a creation and a retry decide how their attempts' debits go; the reads and revisions the transport faults.
    apiPixCreateCobR: 'cobr',
    apiPixCreateCobRWithGeneratedTxid: 'cobr',
    apiPixRetryCobR: 'cobr-retry',
    apiPixReviseCobR: 'cobr-query',
    apiPixGetCobR: 'cobr-query',
    apiPixListCobRs: 'cobr-query',
    apiPixPutWebhookCobR: 'webhook-config',
    apiPixGetWebhookCobR: 'webhook-config',
    apiPixDeleteWebhookCobR: 'webhook-config',
    // API Pix's received PIX and devoluções as the gateway's; its webhooks per key as the gateway's registrations.
    apiPixGetPix: 'pix-query',
    apiPixListPix: 'pix-query',
    apiPixCreateDevolucao: 'devolucao',
    apiPixGetDevolucao: 'devolucao-query',
    apiPixPutWebhook: 'webhook-config',
    apiPixGetWebhook: 'webhook-config',
    apiPixDeleteWebhook: 'webhook-config',
    apiPixListWebhooks: 'webhook-config',
    // API Pix's due charges and their batches: as its cobs (a batch's scenarios go to each cobv it creates).
    apiPixCreateCobV: 'cob',
    apiPixGetCobV: 'cob-query',
    apiPixListCobVs: 'cob-query',
    apiPixReviseCobV: 'cob-cancel',
    apiPixCobVPayload: null,
    apiPixPutLoteCobV: 'cob',
    apiPixReviseLoteCobV: 'cob-cancel',
    apiPixGetLoteCobV: 'cob-query',
    apiPixListLoteCobV: 'cob-query',
  },
  routingUrl: (url, config) => apiPixRoutingUrl(config.apiPixBasePath, url),
  register: async (app, { config, routes }) => {
    await app.register(named('api-pix-oauth', apiPixToken))
    await app.register(named('api-pix-payloads', apiPixPayloads))
    // Its base path may not take over a route of the sandbox (they are all registered before it).
    const collision = baseCollision(config.apiPixBasePath, routes)
    if (collision !== undefined) {
      throw new ConfigError([`apiPixBasePath (--api-pix-base-path / SANDBOX_API_PIX_BASE_PATH): ${JSON.stringify(config.apiPixBasePath)} would take over the route ${collision}: choose a path no route of the sandbox is at or under, such as /v2`])
    }
    await app.register(named('api-pix', apiPixRoutes), { prefix: config.apiPixBasePath })
  },
  // Its callbacks go to the account's webhooks of them (`rec` to the registrations of its type too).
  // Its callbacks go over mutual TLS to an https receiver, as BACEN's API Pix says of them (docs/webhooks.md).
  deliveries: sb => Object.fromEntries(API_PIX_CALLBACKS.map(t => [t, { sample: apiPixSamples[t], receivers: (accountId: number) => sb.apiPixWebhooks.callbackUrls(accountId, t), clientCertificate: true }])),
  notifier: sb => new ApiPixNotifier({ store: sb.store, webhooks: sb.webhooks, webhookUrls: sb.apiPixWebhooks, views: chargeViewDeps(sb) }),
  report: {
    title: 'API Pix',
    // Its token, and its routes under its base path, named without it (so an operation both dialects serve has one name).
    grades: (_method, route, config) => {
      if (route === OAUTH_TOKEN_PATH) return { route, claim: route.length }
      const base = config.apiPixBasePath
      return route === base || route.startsWith(`${base}/`) ? { route: route.slice(base.length) || '/', claim: base.length } : undefined
    },
    checks: apiPixChecks,
  },
}
