import type { DeliveryAttempt } from '../../store/state.js'
import { evidence, failed, is2xx, notExercised, passed, plural, receiverAttempts, signed, type CheckDefinition, type Evidence } from '../../report/checks.js'
import { cents, field, NO_FIELDS, text, type FieldsOf } from '../../report/facts.js'
import { EVENT_TYPE } from './notifier.js'

/**
 * Mercado Pago's own checks of the integration report (server/report/checks.ts), graded only for an
 * integration that used its routes: an idempotency key per intent, reused on a retry; the payment
 * read back after a notification rather than the body trusted; the notification's signature checked.
 */

const CREATE = '/v1/payments'
const READ = '/v1/payments/:id'

/** What the report reads of its money requests (docs/mercado-pago.md): a payment's own id is the one in its path. */
export const mercadoPagoFields: Readonly<Record<string, FieldsOf>> = {
  [`POST ${CREATE}`]: r => ({ externalId: text(field(r.body, 'external_reference')), idempotencyKey: text(r.headers['x-idempotency-key']), amountCents: cents(field(r.body, 'transaction_amount')), target: null }),
  [`GET ${READ}`]: r => ({ ...NO_FIELDS, externalId: text(field(r.params, 'id')) }),
  'POST /v1/payments/:id/refunds': r => ({ externalId: null, idempotencyKey: text(r.headers['x-idempotency-key']), amountCents: cents(field(r.body, 'amount')), target: text(field(r.params, 'id')) }),
}

const idempotencyPerIntent: CheckDefinition = {
  id: 'mercado-pago-idempotency-per-intent',
  title: 'Each payment intent has its own X-Idempotency-Key, and a retry after no answer reuses it',
  section: 'mercado-pago Routes',
  page: 'mercado-pago.md',
  anchor: '#routes',
  dialects: ['mercado-pago'],
  passes: 'no creation reused a key of another intent (409 idempotency_key_already_used), and each creation left unanswered or answered 5xx was retried with the same key',
  fails: 'a key was sent again with another body (409), or a creation whose outcome was unknown was not retried with its key',
  exercise: 'create a payment (POST /v1/payments); to see a retry, create one with X-Sandbox-Scenario: RATE_LIMITED',
  evaluate (f) {
    const creations = f.requests.filter(r => r.method === 'POST' && r.route === CREATE)
    if (creations.length === 0) return notExercised(`no payment was created; to exercise it, ${this.exercise}`)
    const problems: Evidence[] = []
    for (const r of creations) {
      if (r.status === 409) problems.push(evidence(`POST ${CREATE} reused the key ${r.idempotencyKey ?? '(none)'} for another request`, { requestIds: [r.id] }))
      if (r.status === null || r.status >= 500 || r.status === 429) {
        const retried = creations.slice(creations.indexOf(r) + 1).some(x => r.idempotencyKey !== null && x.idempotencyKey === r.idempotencyKey)
        if (!retried) problems.push(evidence(`POST ${CREATE} got ${r.status ?? 'no answer'}, and no retry with its key ${r.idempotencyKey ?? '(none)'} followed`, { requestIds: [r.id] }))
      }
    }
    if (problems.length > 0) return failed(`${plural(problems.length, 'creation')} of ${creations.length} misused its idempotency key`, problems)
    return passed(`${plural(creations.length, 'creation')}, each key kept to one intent`)
  },
}

/** The payment id a notification names (its body's `data.id`). */
const paymentIdOf = (body: unknown): string | null => {
  const id = (body as { data?: { id?: unknown } } | null)?.data?.id
  return typeof id === 'string' ? id : null
}
const firstAcknowledged = (attempts: readonly DeliveryAttempt[]): number | undefined => {
  const a = attempts.find(is2xx)
  return a === undefined ? undefined : Date.parse(a.at)
}

const readBack: CheckDefinition = {
  id: 'mercado-pago-payment-read-back',
  title: 'After a notification, the payment is read back (GET /v1/payments/{id}) rather than the notification trusted',
  section: 'mercado-pago Notifications',
  page: 'mercado-pago.md',
  anchor: '#notifications',
  dialects: ['mercado-pago'],
  passes: 'each notification the receiver acknowledged was followed by a GET of the payment it names',
  fails: 'a notification was acknowledged and its payment never read afterwards',
  exercise: 'create a payment with a notification_url, pay it (POST /__sandbox/pix/pay) and let the receiver handle the notification',
  evaluate (f) {
    const notified = f.deliveries.filter(d => d.eventType === EVENT_TYPE && signed(d) && firstAcknowledged(receiverAttempts(d)) !== undefined)
    if (notified.length === 0) return notExercised(`no notification was acknowledged; to exercise it, ${this.exercise}`)
    const unread = notified.filter(d => {
      const id = paymentIdOf(d.body)
      const at = firstAcknowledged(receiverAttempts(d))!
      return !f.requests.some(r => r.method === 'GET' && r.route === READ && r.externalId === id && r.at >= at)
    })
    if (unread.length > 0) return failed(`${plural(unread.length, 'notification')} of ${notified.length} not followed by a read of the payment`, unread.map(d => evidence(`payment ${paymentIdOf(d.body) ?? '?'} notified to ${d.url}, never read after`, { deliveryIds: [d.id] })))
    return passed(`${plural(notified.length, 'notification')}, each followed by a read of its payment`)
  },
}

const signatureChecked: CheckDefinition = {
  id: 'mercado-pago-signature-checked',
  title: 'A notification with a bad x-signature is refused',
  section: 'mercado-pago Notifications',
  page: 'mercado-pago.md',
  anchor: '#notifications',
  dialects: ['mercado-pago'],
  passes: 'every notification sent with a wrong x-signature was answered 4xx',
  fails: 'a badly signed notification was answered 2xx (accepted), 5xx, or not at all',
  exercise: 'set the account\'s webhook URL (PUT /__sandbox/accounts/:id/mercado-pago/webhook) and send the probe: POST /__sandbox/report/probe { "accountId": N } (it goes to the first event type that has a receiver)',
  evaluate (f) {
    const probes = f.deliveries.filter(d => d.eventType === EVENT_TYPE && !signed(d) && d.attempts.length > 0)
    if (probes.length === 0) return notExercised(`no badly signed notification was sent; to exercise it, ${this.exercise}`)
    const accepted = probes.filter(d => d.attempts.some(a => a.statusCode === null || a.statusCode < 400 || a.statusCode >= 500))
    if (accepted.length > 0) return failed(`${plural(accepted.length, 'badly signed notification')} of ${probes.length} not refused`, accepted.map(d => evidence(`to ${d.url}: answered ${d.attempts.map(a => a.statusCode ?? a.error).join(', ')}`, { deliveryIds: [d.id] })))
    return passed(`${plural(probes.length, 'badly signed notification')}, each refused`)
  },
}

export const mercadoPagoChecks: readonly CheckDefinition[] = [idempotencyPerIntent, readBack, signatureChecked]
