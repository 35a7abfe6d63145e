import { accountWebhookRoutes } from './account-webhook.js'

/**
 * Pix Automático's webhook of recurring charges (tag WebhookCobR; docs/api-pix.md, "Recurring
 * charges"): one URL per account; every change of status of one of its charges, or of one of their
 * attempts, is posted to `{webhookUrl}/cobr` as `{ "cobsr": [...] }`.
 */
export default accountWebhookRoutes({ callback: 'cobr', tag: 'CobR', of: 'cobranças recorrentes', told: 'each change of the account\'s recurring charges, or of one of their attempts,' })
