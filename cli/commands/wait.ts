import { DELIVERY_EVENT_TYPES, DELIVERY_STATUSES, type DeliveryStatus } from '../../server/store/state.js'
import { asEventType, positiveInteger, UsageError, type Command } from '../command.js'
import type { DeliveryWait } from '../../client/index.js'
import { DURATION, parseDuration } from './clock.js'
import { deliveryLine } from './tail.js'

/** The most a wait may take (the control plane's timeoutMs). */
const MAX_MS = 60_000

/**
 * `wait <event> [--account N] [--transaction ID] [--status S] [--since ID|TIME] [--timeout D]`: waits for a
 * webhook delivery (`GET /__sandbox/webhooks/deliveries/wait`) and prints it; a script's step that needs a
 * webhook to have arrived. A wait that times out exits 1 with what became of the closest deliveries.
 */
export const wait: Command = {
  name: 'wait',
  summary: 'wait for a webhook delivery of an event type (delivered, or any status), print it, or say why none came',
  usage: ['wait <event> [--account N] [--transaction ID] [--status STATUS] [--since ID|TIME] [--timeout DURATION]'],
  details: [
    `Events: ${DELIVERY_EVENT_TYPES.join(', ')}, and the sandbox's other dialects' (mercado_pago_payment).`,
    'Options:',
    '  --account N          only this account\'s deliveries',
    '  --transaction ID     only the deliveries of this transaction (its transactionId, a txid or idRec for API Pix)',
    `  --status STATUS      ${DELIVERY_STATUSES.join(', ')} (default: any)`,
    '  --since ID|TIME      only deliveries after this delivery id, or created at or after this instant of sandbox time',
    '  --timeout DURATION   how long to wait, at most 60s (default 10s): 500ms, 10s, 1m or milliseconds',
    '',
    'Prints the delivery as tail does (--json: the delivery). Exits 1 when none matched in time, printing the',
    'closest deliveries and how each differs: no receiver registered, pending after a refused connection, ...',
    'Example:  pix-sandbox wait cash_out --transaction "$ID" --status delivered',
  ],
  options: { account: { type: 'string' }, transaction: { type: 'string' }, status: { type: 'string' }, since: { type: 'string' }, timeout: { type: 'string' } },
  async run (ctx, positionals, values) {
    if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? `wait needs an event: ${DELIVERY_EVENT_TYPES.join(', ')}` : `unexpected "${positionals.slice(1).join(' ')}"`, this)
    const eventType = positionals[0]
    const status = values.status as DeliveryStatus | undefined
    if (status !== undefined && !DELIVERY_STATUSES.includes(status)) throw new UsageError(`--status needs one of ${DELIVERY_STATUSES.join(', ')}, not "${String(status)}"`, this)
    let timeoutMs: number | undefined
    if (values.timeout !== undefined) {
      const ms = typeof values.timeout === 'string' ? parseDuration(values.timeout) : null
      if (ms === null || ms > MAX_MS) throw new UsageError(`--timeout needs ${DURATION}, of at most 60s${typeof values.timeout === 'string' ? `, not "${values.timeout}"` : ''}`, this)
      timeoutMs = ms
    }
    const text = (name: string): string | undefined => {
      const v = values[name]
      if (v === undefined) return undefined
      if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} needs a value`, this)
      return v
    }
    const delivery = await asEventType(eventType, this, () => ctx.sandbox.sandbox.waitForDelivery({
      // The running sandbox knows its dialects' types: a name it does not take comes back a usage error (asEventType).
      eventType: eventType as DeliveryWait['eventType'],
      ...(values.account === undefined ? {} : { accountId: positiveInteger(values.account, '--account', this) }),
      ...(text('transaction') === undefined ? {} : { transactionId: text('transaction') }),
      ...(status === undefined ? {} : { status }),
      ...(text('since') === undefined ? {} : { since: text('since') }),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    }, { signal: ctx.signal }))
    ctx.print(delivery, () => [deliveryLine(delivery)])
  },
}
