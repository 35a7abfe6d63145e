import { DELIVERY_EVENT_TYPES, type DeliveryEventType } from '../../server/store/state.js'
import type { WebhookTest } from '../../client/index.js'
import { asEventType, positiveInteger, UsageError, type Command } from '../command.js'

/** How an account gets a receiver of an event type: the control plane's registrations, or a webhook of API Pix for its callbacks. */
const HOW_TO_RECEIVE: Partial<Record<DeliveryEventType, string>> = {
  rec: 'configure one with PUT /v2/webhookrec, or register one in the dashboard or with POST /__sandbox/webhooks',
  cobr: 'configure one with PUT /v2/webhookcobr',
  pix: 'configure one on a key with PUT /v2/webhook/{chave}',
}

/** `trigger <event> --account N`: a sample webhook to the account's registered URLs and webhooks of API Pix (Stripe's `trigger`). */
export const trigger: Command = {
  name: 'trigger',
  summary: 'send a sample webhook of an event type to the account\'s registered URLs and webhooks of API Pix, signed as real ones',
  usage: ['trigger <event> --account N [--transaction ID]'],
  details: [
    `Events: ${DELIVERY_EVENT_TYPES.join(', ')} (pix, cobr and rec, API Pix's callbacks, to the account's /webhook/{chave}, /webhookcobr and /webhookrec; rec to its registrations too), and the sandbox's other dialects' (mercado_pago_payment, to the account's Mercado Pago notification URL).`,
    'Options:',
    '  --transaction ID   the transactionId the sample carries (default: a made-up one)',
    '',
    'Each delivery is listed with its id; pix-sandbox tail shows its attempts.',
  ],
  options: { account: { type: 'string' }, transaction: { type: 'string' } },
  async run (ctx, positionals, values) {
    if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? `trigger needs an event: ${DELIVERY_EVENT_TYPES.join(', ')}` : `unexpected "${positionals.slice(1).join(' ')}"`, this)
    const eventType = positionals[0]
    const accountId = positiveInteger(values.account, '--account', this)
    const sent = await asEventType(eventType, this, () => ctx.sandbox.sandbox.testWebhook({
      accountId,
      eventType: eventType as WebhookTest['eventType'],
      ...(typeof values.transaction === 'string' ? { transactionId: values.transaction } : {}),
    }))
    const sentTo = sent.deliveries.filter(d => d.url !== null)
    ctx.print(sent, () => sentTo.length === 0
      ? [`Event ${sent.eventId} (${eventType}): account ${accountId} has no active webhook for ${eventType}, so nothing was sent (${HOW_TO_RECEIVE[eventType as DeliveryEventType] ?? 'register one in the dashboard or with POST /__sandbox/webhooks'})`]
      : [
          `Event ${sent.eventId} (${eventType}) sent to ${sentTo.length} webhook(s):`,
          ...sentTo.map(d => `  ${d.url}  ${d.status}  delivery ${d.id}`),
        ])
  },
}
