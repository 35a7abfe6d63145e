import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Sandbox } from '../context.js'
import { requestFields, type RequestFact } from './facts.js'

/**
 * The report's own record of what integrations did: one RequestFact per gateway request and per
 * control-plane transaction query, per account, the newest 1,000 of each, in memory (like the request journal, a
 * restart starts it over). It keeps the few fields the checks grade and, by construction, no header
 * or body: no secret can leak through it.
 */
/** Requests kept per account: the newest, so a long-lived sandbox grades what an integration does now. */
export const REQUESTS_PER_ACCOUNT = 1000

export class RequestRecorder {
  private readonly byAccount = new Map<number, RequestFact[]>()

  constructor (private readonly capacityPerAccount = REQUESTS_PER_ACCOUNT) {}

  record (fact: RequestFact): void {
    if (fact.accountId === null) return
    let list = this.byAccount.get(fact.accountId)
    if (!list) this.byAccount.set(fact.accountId, list = [])
    list.push(fact)
    // Trimmed by a tenth of the cap at once, so a busy account costs O(1) per request.
    const cap = this.capacityPerAccount
    if (list.length > cap + Math.max(1, Math.floor(cap / 10))) list.splice(0, list.length - cap)
  }

  /** Oldest first. */
  of (accountId: number): readonly RequestFact[] {
    return this.byAccount.get(accountId) ?? []
  }

  forget (accountId: number): void {
    this.byAccount.delete(accountId)
  }

  clear (): void {
    this.byAccount.clear()
  }
}

/** Routes of the gateway's two families (gateway 4), and the control plane's transaction query. */
function recorded (method: string, route: string): boolean {
  if (route.startsWith('/__sandbox/')) return method === 'GET' && route.startsWith('/__sandbox/transactions')
  return route.startsWith('/api/') || route === '/balance' || route === '/accounts/balances' || route === '/dict/pix' ||
    route.startsWith('/cob/') || route.startsWith('/pix/')
}

/**
 * The hook that feeds the recorder: the error's code is caught where it is thrown (the simple shape does
 * not show it), the rest when the answer has gone.
 */
export function recordRequests (app: FastifyInstance, sb: Pick<Sandbox, 'clock' | 'tokens' | 'payouts'>, recorder: RequestRecorder): void {
  const codes = new WeakMap<FastifyRequest, string>()
  app.addHook('onError', (request, _reply, error, done) => {
    const code = (error as { code?: unknown }).code
    codes.set(request, typeof code === 'string' && !code.startsWith('FST_') ? code : 'HTTP_ERROR')
    done()
  })
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url
    if (route === undefined || !recorded(request.method, route)) return done()
    let accountId = request.account?.id ?? null
    let expiredToken = false
    if (accountId === null && reply.statusCode === 401) {
      const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')
      accountId = bearer ? sb.tokens.expiredAccount(bearer[1]) : null
      expiredToken = accountId !== null
    }
    if (accountId === null && route.startsWith('/__sandbox/')) {
      const query = request.query as { accountId?: number }
      const id = (request.params as { id?: string }).id
      accountId = query.accountId ?? (id !== undefined ? sb.payouts.findTransaction(id)?.accountId ?? null : null)
    }
    const applied = reply.getHeader('x-sandbox-scenario-applied')
    recorder.record({
      id: request.id,
      at: sb.clock.now(),
      method: request.method,
      route,
      status: reply.statusCode,
      accountId,
      scenarios: typeof applied === 'string' && applied !== '' ? applied.split(',').map(s => s.trim().split(';')[0]) : [],
      errorCode: codes.get(request) ?? null,
      expiredToken,
      ...requestFields(request.method, { route, params: request.params, headers: request.headers, body: request.body }),
    })
    done()
  })
}
