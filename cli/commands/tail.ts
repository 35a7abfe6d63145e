import type { Delivery, DialectEventType, Requests } from '../../client/index.js'
import { localTime, positiveInteger, UsageError, type Command, type Context } from '../command.js'

type JournalEntry = Requests['requests'][number]

const POLL_MS = 250
/** How many requests and deliveries one poll reads (requests beyond it come with the next poll). */
const WINDOW = 200

export function requestLine (r: JournalEntry): string {
  const status = r.status === 0 ? 'no answer' : String(r.status)
  return [
    `${localTime(r.at)}  ${r.method.padEnd(6)} ${r.path}  ${status}${r.errorCode ? ` ${r.errorCode}` : ''}  ${r.durationMs} ms`,
    r.accountId === null ? '' : `  account ${r.accountId}`,
    r.scenarios.length > 0 ? `  [${r.scenarios.join(',')}]` : '',
  ].join('')
}

export function deliveryLine (d: Delivery | Delivery<DialectEventType>): string {
  const last = d.attempts.at(-1)
  const attempt = last ? `, attempt ${d.attempts.length} ${last.kind}: ${last.statusCode ?? last.error ?? 'no answer'}` : ''
  return `${last ? localTime(last.at) : '-'}  webhook ${d.eventType} -> ${d.url ?? '(no receiver)'}  ${d.status}${attempt}  account ${d.accountId}  delivery ${d.id}`
}

/** What changes a delivery's line: a new attempt or a new status. */
const stateOf = (d: Delivery): string => `${d.status}/${d.attempts.length}`

/**
 * `tail [--account N]`: the requests the sandbox answers and the webhooks it delivers, live, one line
 * each, until Ctrl-C. It follows the request journal by entry id (`since`) and polls the delivery log,
 * showing only what is new. Its polls, marked as the CLI's, are not journaled (server/journal/capture.ts).
 */
export const tail: Command = {
  name: 'tail',
  summary: 'show requests and webhook deliveries as they happen, one line each, until Ctrl-C',
  usage: ['tail [--account N]'],
  details: [
    'Options:',
    '  --account N   only this account\'s requests and deliveries',
    '',
    'A request line: sandbox time (São Paulo, with its offset), method, path, status ("no answer" for a transport fault that reset or held',
    'the connection), duration, account and the scenarios applied. A delivery line: the time of its latest',
    'attempt, event type, URL, status and that attempt\'s answer. With --json, one JSON object per line:',
    '{"type":"request",...} or {"type":"delivery",...}.',
  ],
  options: { account: { type: 'string' } },
  async run (ctx, positionals, values) {
    if (positionals.length > 0) throw new UsageError(`unexpected "${positionals.join(' ')}"`, this)
    const accountId = values.account === undefined ? undefined : positiveInteger(values.account, '--account', this)
    await follow(ctx, accountId)
  },
}

async function follow (ctx: Context, accountId: number | undefined): Promise<void> {
  const api = ctx.sandbox.sandbox
  const options = { signal: ctx.signal }
  const account = accountId === undefined ? {} : { accountId }
  const deliveries = new Map<string, string>()
  let first = true
  // The newest entry now: what came before tail started is not shown.
  let since = (await api.requests({ ...account, limit: 1 }, options)).requests[0]?.id ?? 0
  if (!ctx.json) ctx.io.stderr(`pix-sandbox: following ${ctx.url}${accountId === undefined ? '' : ` (account ${accountId})`}; Ctrl-C stops\n`)
  while (!ctx.signal.aborted) {
    let requests: JournalEntry[]
    let delivered: Delivery[]
    try {
      ;[requests, delivered] = await Promise.all([
        api.requests({ ...account, since: String(since), limit: WINDOW }, options).then(r => r.requests),
        api.deliveries({ ...account, limit: WINDOW }, options).then(r => r.deliveries),
      ])
    } catch (err) {
      if (ctx.signal.aborted) return
      throw err
    }
    // Entries after `since` come oldest first; deliveries newest first. The first poll only marks the deliveries already there.
    for (const r of requests) {
      since = Math.max(since, r.id)
      ctx.print({ type: 'request', ...r }, () => [requestLine(r)])
    }
    for (const d of delivered.reverse()) {
      const state = stateOf(d)
      if (deliveries.get(d.id) === state) continue
      deliveries.set(d.id, state)
      if (!first) ctx.print({ type: 'delivery', ...d }, () => [deliveryLine(d)])
    }
    first = false
    await new Promise<void>(resolve => {
      const timer = setTimeout(resolve, POLL_MS)
      ctx.signal.addEventListener('abort', () => { clearTimeout(timer); resolve() }, { once: true })
    })
  }
}
