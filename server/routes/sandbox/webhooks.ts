import type { RoutesPlugin } from '../../route-plugin.js'
import { Type } from '@sinclair/typebox'
import { Refusal, invalidRequest } from '../../errors/refusal.js'
import { parseInstant } from '../../domain/instant.js'
import { errorResponses } from '../../schemas/common.js'
import { AccountFilterQuery, NumericIdParams } from '../../schemas/sandbox.js'
import {
  DeliveryIdParams, DeliveryList, DeliveryListQuery, DeliveryView, DeliveryWaitQuery, WebhookList, WebhookPatchBody,
  WebhookRegistrationBody, WebhookTestAnswer, WebhookTestBody, WebhookView, withDeliveryEventTypes,
} from '../../schemas/webhooks.js'
import { nearMissSentence } from '../../webhooks/delivery-log.js'
import { appliedScenarios } from '../../applied-scenarios.js'
import { SANDBOX_SHAPE } from './errors.js'

/**
 * /__sandbox/webhooks: registrations where the real service has them (the dashboard and its API),
 * a test event, and the delivery log with redelivery and a long-poll for tests.
 */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox

  // A long-poll would otherwise hold the server's close for up to its timeout.
  app.addHook('preClose', async () => { sb.webhooks.closeWaiters() })
  app.addHook('onClose', async () => { await sb.webhooks.close() })

  app.post('/webhooks', {
    schema: {
      operationId: 'sandboxRegisterWebhook',
      tags: ['Sandbox'],
      summary: 'Register a URL for an event type of an account (http:// allowed here)',
      description: 'Rules of spec 2.11 and 4.1: up to 3 active URLs per event type; the same URL for the same event updates its headers, bumps its version and reactivates it (201 on creation, 200 on update); at most 5 custom headers; host, content-length, connection, transfer-encoding, content-type and user-agent are refused in any case, and so are hop-by-hop names and X-Sandbox-*. The URL is stored normalised; the sandbox\'s own address is refused unless SANDBOX_SELF_WEBHOOKS=enabled, as written or by any address its host name resolves to.',
      body: WebhookRegistrationBody,
      response: { 200: WebhookView, 201: WebhookView, ...errorResponses(SANDBOX_SHAPE, [400, 404]) },
    },
  }, async (request, reply) => {
    const { accountId, eventType, url, headers } = request.body
    const { webhook, created } = await sb.webhooks.registrations.register({ accountId, eventType, url, headers }, { httpsOnly: false })
    return reply.status(created ? 201 : 200).send(webhook)
  })

  app.get('/webhooks', {
    schema: {
      operationId: 'sandboxListWebhooks',
      tags: ['Sandbox'],
      summary: 'Registrations of one account (or all), active and inactive',
      querystring: AccountFilterQuery,
      response: { 200: WebhookList },
    },
  }, async (request) => {
    const webhooks = sb.webhooks.registrations.list(request.query.accountId)
    return { webhooks, total: webhooks.length }
  })

  app.patch('/webhooks/:id', {
    schema: {
      operationId: 'sandboxUpdateWebhook',
      tags: ['Sandbox'],
      summary: 'Activate or deactivate a registration, or replace its headers',
      params: NumericIdParams,
      body: WebhookPatchBody,
      response: { 200: WebhookView, ...errorResponses(SANDBOX_SHAPE, [400, 404]) },
    },
  }, async (request) => {
    const webhook = sb.webhooks.registrations.update(request.params.id, request.body)
    return webhook
  })

  app.delete('/webhooks/:id', {
    schema: {
      operationId: 'sandboxDeleteWebhook',
      tags: ['Sandbox'],
      summary: 'Remove a registration (deliveries already made stay in the log)',
      params: NumericIdParams,
      response: { 204: Type.Null(), ...errorResponses(SANDBOX_SHAPE, [404]) },
    },
  }, async (request, reply) => {
    if (!sb.webhooks.registrations.remove(request.params.id)) throw new Refusal('WEBHOOK_NOT_FOUND', `Webhook ${request.params.id} not found`)
    return reply.status(204).send(null)
  })

  app.get('/webhooks/ca.pem', {
    schema: {
      operationId: 'sandboxWebhookCa',
      tags: ['Sandbox'],
      summary: 'The CA of the client certificate the sandbox presents to webhook receivers (PEM)',
      description: 'API Pix\'s callbacks to an https receiver present the sandbox\'s client certificate, as a PSP\'s do (docs/webhooks.md, mutual TLS): a receiver that trusts this CA (requestCert, ca) accepts them and nobody else. The CA of --webhook-client-cert, or else the one shipped with the sandbox, fixtures/certs/webhook-ca.crt.pem (the same at every start, in the npm package and the image).',
      response: { 200: { description: 'PEM certificates', content: { 'application/x-pem-file': { schema: Type.String() } } } },
    },
  }, async (_request, reply) => {
    // A sandbox always has one (given, or the shipped one: server/startup.ts).
    const ca = sb.webhooks.clientIdentity!.ca
    return reply.type('application/x-pem-file').header('cache-control', 'no-store').send(ca)
  })

  app.post('/webhooks/test', {
    schema: {
      operationId: 'sandboxTestWebhook',
      tags: ['Sandbox'],
      summary: 'Emit a sample event of a type to the account\'s receivers, to check parsing and signatures',
      description: 'Moves no money. The sample goes to the active registrations of its type (POST /__sandbox/webhooks) and, for a callback of API Pix, to the account\'s webhooks of that callback in its own shape: `rec` to /webhookrec\'s URL + `/rec` (`{ recs: [...] }`), `cobr` to /webhookcobr\'s + `/cobr` (`{ cobsr: [...] }`), `pix` to each /webhook/{chave}\'s + `/pix` (`{ pix: [...] }`); for Mercado Pago\'s `mercado_pago_payment`, to the account\'s notification URL (PUT /__sandbox/accounts/{id}/mercado-pago/webhook), signed with x-signature; with none, one `no_receiver` delivery. Delivery faults apply through X-Sandbox-Scenario (endpoint `webhook-test`), e.g. `WEBHOOK_DUPLICATE`. Give the same transactionId to two calls to see WEBHOOK_OUT_OF_ORDER at work.',
      body: withDeliveryEventTypes(WebhookTestBody, sb.deliveries.types),
      response: { 202: WebhookTestAnswer, ...errorResponses(SANDBOX_SHAPE, [400, 404]) },
    },
  }, async (request, reply) => {
    const { accountId, eventType } = request.body
    const account = sb.accounts.require(accountId)
    const scenarios = appliedScenarios(request, reply, 'webhook-test', accountId)
    const transactionId = request.body.transactionId ?? sb.rng.uuid()
    const payload = sb.deliveries.sample(eventType, { account, transactionId, nowMs: sb.clock.now(), rng: sb.rng })
    const callbackUrls = sb.deliveries.receivers(eventType, accountId)
    const deliveries = sb.webhooks.publishTo<string>({ accountId, eventType, transactionId, payload, scenarios }, callbackUrls)
    return reply.status(202).send({ eventId: deliveries[0].eventId, deliveries })
  })

  app.get('/webhooks/deliveries', {
    schema: {
      operationId: 'sandboxListDeliveries',
      tags: ['Sandbox'],
      summary: 'The delivery log, newest first, with every attempt, the request headers and the body',
      querystring: withDeliveryEventTypes(DeliveryListQuery, sb.deliveries.types),
      response: { 200: DeliveryList },
    },
  }, async (request) => {
    const { limit, ...filter } = request.query
    const deliveries = sb.webhooks.deliveries(filter, limit)
    return { deliveries, total: deliveries.length }
  })

  const sinceFilter = (since: string): { afterSeq: number } | { createdFromMs: number } => {
    const d = sb.webhooks.delivery(since)
    if (d) return { afterSeq: d.seq }
    const at = parseInstant(since)
    if (at === null) throw invalidRequest(`since must be the id of a delivery in the log or an ISO 8601 instant such as 2026-03-10T12:00:00Z (not ${JSON.stringify(since)})`)
    return { createdFromMs: at }
  }

  app.get('/webhooks/deliveries/wait', {
    schema: {
      operationId: 'sandboxWaitForDelivery',
      tags: ['Sandbox'],
      summary: 'Wait until a matching delivery exists, then answer it (long-poll for tests)',
      description: 'Answers at once when the log already holds a match (the newest), else as soon as a delivery is created or changes into a match, e.g. `status=delivered`. 408 after timeoutMs of real time, ' +
        'its message saying what became of the closest delivery (no receiver, pending after a failed attempt, ...) and details.nearMisses listing up to 5, fewest fields apart first, each with the fields that differed. ' +
        '`since` (a delivery id, or an instant of sandbox time) leaves out older deliveries, so a wait without a transaction id never answers with an earlier test\'s delivery.',
      querystring: withDeliveryEventTypes(DeliveryWaitQuery, sb.deliveries.types),
      response: { 200: DeliveryView, ...errorResponses(SANDBOX_SHAPE, [400, 408]) },
    },
  }, async (request, reply) => {
    const { timeoutMs = 10_000, since, ...rest } = request.query
    const filter = since === undefined ? rest : { ...rest, ...sinceFilter(since) }
    // A client that gives up stops the wait instead of leaving a listener behind.
    const gone = new AbortController()
    reply.raw.once('close', () => gone.abort())
    const found = await sb.webhooks.waitFor(filter, timeoutMs, gone.signal)
    if (found) return found
    // What the log holds near the filter, as a failed verify of the journal lists it: a delivery with no
    // receiver, or one still pending after a refused connection, is what a test waiting in vain needs to see.
    const misses = sb.webhooks.nearMisses(filter)
    const closest = misses.length === 0 ? 'the delivery log holds no delivery at all' : `the closest: ${nearMissSentence(misses[0], sb.clock.isFrozen())}`
    throw new Refusal('WAIT_TIMEOUT', `No matching delivery within ${timeoutMs} ms; ${closest}`, {
      details: {
        filter,
        nearMisses: misses.map(({ delivery: d, differences }) => {
          const last = d.attempts.at(-1)
          return {
            id: d.id,
            accountId: d.accountId,
            eventType: d.eventType,
            transactionId: d.transactionId,
            status: d.status,
            url: d.url,
            createdAt: d.createdAt,
            attempts: d.attempts.length,
            lastAttempt: last === undefined ? null : { at: last.at, statusCode: last.statusCode, error: last.error },
            nextAttemptAt: d.nextAttemptAt,
            ...(d.failureReason === undefined ? {} : { failureReason: d.failureReason }),
            differences,
          }
        }),
      },
    })
  })

  app.get('/webhooks/deliveries/:id', {
    schema: {
      operationId: 'sandboxGetDelivery',
      tags: ['Sandbox'],
      summary: 'One delivery with every attempt',
      params: DeliveryIdParams,
      response: { 200: DeliveryView, ...errorResponses(SANDBOX_SHAPE, [404]) },
    },
  }, async (request) => {
    const d = sb.webhooks.delivery(request.params.id)
    if (!d) throw new Refusal('DELIVERY_NOT_FOUND', `Delivery ${request.params.id} not found`)
    return d
  })

  app.post('/webhooks/deliveries/:id/redeliver', {
    schema: {
      operationId: 'sandboxRedeliver',
      tags: ['Sandbox'],
      summary: 'Send a delivery again now, whatever its status (same id, fresh timestamp and signature)',
      description: 'Answers 202 at once; the attempt appears in the log (kind redeliver) when it ends. A 2xx marks the delivery delivered; a failure marks a finished delivery failed and leaves a pending one to its retry policy.',
      params: DeliveryIdParams,
      response: { 202: DeliveryView, ...errorResponses(SANDBOX_SHAPE, [404, 409]) },
    },
  }, async (request, reply) => {
    const d = sb.webhooks.redeliver(request.params.id)
    return reply.status(202).send(d)
  })
}

export default routes
