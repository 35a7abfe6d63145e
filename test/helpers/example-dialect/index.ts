import { createHmac } from 'node:crypto'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import type { Dialect } from '../../../server/dialects/types.js'
import type { ErrorFamily, ErrorShape } from '../../../server/errors/families.js'
import { Refusal } from '../../../server/errors/refusal.js'
import { errorResponses } from '../../../server/schemas/common.js'
import { appliedScenarios } from '../../../server/applied-scenarios.js'
import type { RoutesPlugin } from '../../../server/route-plugin.js'
import { named } from '../../../server/named-plugins.js'
import { centsToNumber } from '../../../server/domain/money.js'
import { receivedOf } from '../../../server/services/charge-records.js'

/**
 * A dialect of the tests (CONTRIBUTING.md, "How to add a dialect"): a PSP's own API in miniature, whole
 * in this folder and registered only through the list buildApp takes. Its routes live under
 * /example/v1, authenticate with a key of their own (`x-example-key`, the account's client secret),
 * answer errors in a shape of their own (`{ ok: false, reason, message }`, 422 for invalid input),
 * read the balance (where the transport faults apply: scenario endpoint `balance`) and set a hook URL;
 * its notifier posts each PIX the account receives to that hook, as event type `example_pix`, signed
 * with a header of its own (`x-example-signature`); removing a hook it does not have is a code of its own.
 */

/** `{ ok: false, reason, message }`: the error body of every route of the dialect. */
export const ExampleError = Type.Object({
  ok: Type.Literal(false),
  reason: Type.String(),
  message: Type.String(),
}, { $id: 'ExampleError', description: 'Error of the example dialect of the tests' })

export const EXAMPLE_SHAPE: ErrorShape = {
  name: 'example',
  schemaId: 'ExampleError',
  headers: () => ({ 'content-type': 'application/json; charset=utf-8' }),
  body: answer => ({ ok: false, reason: answer.outcome ?? answer.code, message: (answer.english ?? answer.messages).join('; ') }),
}

const PREFIX = '/example/v1'
/** The key its notifications are signed with (`x-example-signature`). */
export const EXAMPLE_SIGNING_KEY = 'example-key'

/** Its family: every path under /example, its column of the error table (invalid input is a 422 here, a code of its own among them). */
export const EXAMPLE_FAMILY: ErrorFamily = {
  name: 'example',
  answers: {
    INVALID_REQUEST: 422,
    UNAUTHORIZED: 401,
    NOT_FOUND: 404,
    ROUTE_NOT_FOUND: 404,
    BODY_TOO_LARGE: 413,
    URI_TOO_LONG: 414,
    UNSUPPORTED_MEDIA_TYPE: 415,
    INVALID_WEBHOOK_URL: 422,
    WEBHOOK_URL_IS_SANDBOX: 422,
    UNKNOWN_SCENARIO: 400,
    INVALID_SCENARIO_PARAMETER: 400,
    RATE_LIMITED: 429,
    SERVICE_UNAVAILABLE: 503,
    STORAGE_UNAVAILABLE: 503,
    INTERNAL_ERROR: 500,
    // A code of its own (DialectCodes, below).
    EXAMPLE_NO_HOOK: 409,
  },
  claim: path => path === '/example' || path.startsWith('/example/') ? '/example'.length : undefined,
  shapeOf: () => EXAMPLE_SHAPE,
  // Its own key on every route (401), an unknown X-Sandbox-Scenario (400), and invalid input (422).
  declare: () => [400, 401, 422],
}

declare module '../../../server/errors/refusal.js' {
  interface DialectCodes {
    /** DELETE of a hook the account does not have. */
    EXAMPLE_NO_HOOK: true
  }
}

const AccountParams = Type.Object({ id: Type.Integer({ minimum: 1 }) })
const Balance = Type.Object({ accountId: Type.Integer(), available: Type.Number() })
const Hook = Type.Object({ url: Type.String({ minLength: 1, maxLength: 2000 }) })

/** The example dialect, with its own state (the hooks, in memory): one per app. */
export function exampleDialect (): Dialect & { hooks: Map<number, string> } {
  const hooks = new Map<number, string>()

  const routes: RoutesPlugin = async (app) => {
    const sb = app.sandbox
    // Its own credentials: the account's client secret in `x-example-key`.
    app.addHook('onRequest', (request, _reply, done) => {
      const id = Number((request.params as { id?: string } | undefined)?.id)
      const account = Number.isSafeInteger(id) ? sb.store.account(id) : undefined
      if (account === undefined) return done(new Refusal('NOT_FOUND', 'no such account'))
      if (request.headers['x-example-key'] !== account.clientSecret) return done(new Refusal('UNAUTHORIZED', 'a wrong x-example-key'))
      done()
    })
    app.get(`${PREFIX}/accounts/:id/balance`, {
      schema: { operationId: 'exampleBalance', tags: ['Example'], params: AccountParams, response: { 200: Balance, ...errorResponses(EXAMPLE_SHAPE, [404]) } },
    }, async (request, reply) => {
      appliedScenarios(request, reply, 'balance', request.params.id)
      const account = sb.store.account(request.params.id)!
      return { accountId: account.id, available: centsToNumber(account.balance.availableCents) }
    })
    app.put(`${PREFIX}/accounts/:id/hook`, {
      schema: { operationId: 'exampleSetHook', tags: ['Example'], params: AccountParams, body: Hook, response: { 200: Hook, ...errorResponses(EXAMPLE_SHAPE, [404]) } },
    }, async (request) => {
      const url = (await sb.webhooks.checkReceiver(request.body.url)).href
      hooks.set(request.params.id, url)
      return { url }
    })
    app.delete(`${PREFIX}/accounts/:id/hook`, {
      schema: { operationId: 'exampleRemoveHook', tags: ['Example'], params: AccountParams, response: { 204: Type.Null(), ...errorResponses(EXAMPLE_SHAPE, [404, 409]) } },
    }, async (request, reply) => {
      if (!hooks.delete(request.params.id)) throw new Refusal('EXAMPLE_NO_HOOK', 'the account has no hook')
      return reply.status(204).send(null)
    })
  }

  return {
    name: 'example',
    hooks,
    families: [EXAMPLE_FAMILY],
    schemas: [ExampleError],
    tags: () => [{ name: 'Example', description: 'The example dialect of the tests' }],
    scenarioEndpoints: { exampleBalance: 'balance', exampleSetHook: null, exampleRemoveHook: null },
    register: async (app: FastifyInstance) => { await app.register(named('example', routes)) },
    deliveries: () => ({
      example_pix: {
        sample: ctx => ({ kind: 'pix', transactionId: ctx.transactionId, amount: 10 }),
        receivers: accountId => hooks.has(accountId) ? [hooks.get(accountId)!] : [],
        // Its own signature: an HMAC of the body with a key of its own, at each attempt.
        headers: attempt => ({ 'x-example-signature': createHmac('sha256', attempt.forged ? 'forged' : EXAMPLE_SIGNING_KEY).update(`${attempt.timestamp}.${attempt.body}`).digest('hex') }),
      },
    }),
    notifier: sb => ({
      notify: event => {
        if (event.kind !== 'pix-received') return
        const url = hooks.get(event.accountId)
        const tx = sb.store.transaction(event.transactionId)
        const received = tx === undefined ? undefined : receivedOf(tx)
        if (url === undefined || received === undefined) return
        sb.webhooks.deliver({ accountId: event.accountId, eventType: 'example_pix', transactionId: tx!.id, payload: { kind: 'pix', transactionId: tx!.id, amount: centsToNumber(received.amountCents) } }, url)
      },
    }),
    report: {
      title: 'Example',
      grades: (_method, route) => route.startsWith(`${PREFIX}/`) ? { route: route.slice(PREFIX.length), claim: PREFIX.length } : undefined,
    },
  }
}
