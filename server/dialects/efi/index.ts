import { ConfigError } from '../../config.js'
import { EFI_SCOPES } from '../../domain/scopes.js'
import type { Dialect } from '../types.js'
import { named } from '../../named-plugins.js'
import { EFI, EfiError, efiPrefixes } from './errors.js'
import { efiV2Routes, efiV3Routes } from './routes/index.js'
import { EfiNotifier, PIX_SENT_EVENT } from './notifier.js'
import { pixSentSample } from './samples.js'

/**
 * Efí's own Pix routes (docs/efi.md): its pay-outs and the reads of what was sent, beside BACEN's API
 * Pix at the same base path (`/v2` at Efí; its `/v3` pay-out at the sibling path), on API Pix's OAuth
 * sign-in, certificates and tokens (its scopes are the account's grant too) and over the same records.
 */
export const efi: Dialect = {
  name: 'efi',
  families: [EFI],
  schemas: [EfiError],
  tags: config => [
    { name: 'Efí', description: `Efí's own Pix routes beside API Pix (${efiPrefixes(config.apiPixBasePath).v2}/gn/..., ${efiPrefixes(config.apiPixBasePath).v3}/gn/pix/:idEnvio), with API Pix's OAuth token; Efí's error shapes` },
  ],
  securitySchemes: () => ({
    efiOAuth2: {
      type: 'oauth2',
      description: 'Efí\'s own routes: the token of POST /oauth/token (API Pix\'s sign-in, the same client credentials and certificate), carrying Efí\'s scopes',
      flows: { clientCredentials: { tokenUrl: '/oauth/token', scopes: Object.fromEntries(EFI_SCOPES.map(s => [s, `Efí: ${s}`])) } },
    },
  }),
  // A pay-out takes the gateway's cash-out scenarios (by QR code: the cash-out by QR code's); the reads none.
  scenarioEndpoints: {
    efiPixSend: 'cash-out',
    efiPixSendLegacy: 'cash-out',
    efiPixSendSameOwnership: 'cash-out',
    efiPixQrCodePay: 'cash-out-qrcode',
    efiPixSentDetail: null,
    efiPixSentDetailByIdEnvio: null,
    efiPixSentList: null,
    // The balance as the gateway's; settings, keys and the bucket none.
    efiGetBalance: 'balance',
    efiGetConfig: null,
    efiPutConfig: null,
    efiCreateEvp: null,
    efiListEvp: null,
    efiDeleteEvp: null,
    efiKeyBuckets: null,
    // A location's image as API Pix's locations; reading a code as the gateway's cash-out by QR code reads it.
    efiLocQrCode: 'loc',
    efiQrCodeDetail: null,
    // The list as the gateway's GET /api/med; a defence none.
    efiListInfracoes: 'med-list',
    efiDefendInfracao: null,
    // A resend as a webhook's configuration.
    efiResendWebhook: 'webhook-config',
    efiGetReceipt: null,
    efiRequestReport: null,
    efiGetReport: null,
    // Split configurations and links none.
    efiCreateSplitConfig: null,
    efiPutSplitConfig: null,
    efiGetSplitConfig: null,
    efiSplitLinkCharge: null,
    efiSplitUnlinkCharge: null,
    efiSplitUnlinkChargeById: null,
    efiSplitDetailCharge: null,
    efiSplitLinkDueCharge: null,
    efiSplitUnlinkDueCharge: null,
    efiSplitUnlinkDueChargeById: null,
    efiSplitDetailDueCharge: null,
    // The devolução of a split PIX as API Pix's devolução.
    efiSplitDevolucao: 'devolucao',
  },
  register: async (app, { config, routes }) => {
    const { v2, v3 } = efiPrefixes(config.apiPixBasePath)
    // Its `/gn/` paths may not take over a route registered before (API Pix's are elsewhere under the base path).
    const taken = routes.find(r => r.url.startsWith(`${v2}/gn/`) || r.url.startsWith(`${v3}/gn/`))
    if (taken !== undefined) {
      throw new ConfigError([`apiPixBasePath (--api-pix-base-path / SANDBOX_API_PIX_BASE_PATH): Efí's routes at ${v2}/gn and ${v3}/gn would take over the route ${taken.method} ${taken.url}: choose another base path`])
    }
    await app.register(named('efi-v2', efiV2Routes), { prefix: v2 })
    await app.register(named('efi-v3', efiV3Routes), { prefix: v3 })
  },
  // Its callback of a sent PIX goes to the payer key's API Pix webhook.
  deliveries: sb => ({ [PIX_SENT_EVENT]: { sample: pixSentSample, receivers: (accountId: number) => sb.apiPixWebhooks.callbackUrls(accountId, 'pix'), clientCertificate: true } }),
  notifier: sb => new EfiNotifier({ store: sb.store, webhooks: sb.webhooks, webhookUrls: sb.apiPixWebhooks, settings: sb.pspSettings }),
  report: {
    title: 'Efí',
    // Its `/gn/` routes, named without the prefix (a longer claim than API Pix's base path).
    grades: (_method, route, config) => {
      const { v2, v3 } = efiPrefixes(config.apiPixBasePath)
      for (const prefix of [v2, v3]) if (route.startsWith(`${prefix}/gn/`)) return { route: route.slice(prefix.length), claim: prefix.length + 3 }
      return undefined
    },
  },
}
