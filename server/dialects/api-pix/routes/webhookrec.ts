import { accountWebhookRoutes } from './account-webhook.js'

/**
 * Pix Automático's webhook of recurrences (tag WebhookRec; docs/api-pix.md, Pix Automático): one URL
 * per account; every status change of one of its recurrences is posted to `{webhookUrl}/rec` as
 * `{ "recs": [RecNotification] }`.
 */
export default accountWebhookRoutes({ callback: 'rec', tag: 'Rec', of: 'recorrências', told: 'each status change of the account\'s recurrences' })
