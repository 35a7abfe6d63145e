import t, { type Test } from 'tap'
import { createHmac } from 'node:crypto'
import { apiPixBacen, checkAnswer, oauthToken, PROBLEM_TYPE } from '../helpers/api-pix.js'
import { bearer, T0 } from '../helpers/app.js'
import { aTxid } from '../helpers/payins.js'
import { startReceiver, type Receiver } from '../helpers/receiver.js'
import { advanceTo, cobrApp, cobrDeliveries } from '../helpers/recurrences.js'

/**
 * Pix Automático's webhook of recurring charges under /v2 (docs/api-pix.md, "Recurring charges"): PUT,
 * GET and DELETE /webhookcobr against BACEN's API Pix 2.9.0, and the callback: each change of a charge
 * or of one of its attempts posted to `{webhookUrl}/cobr` as BACEN's WebhookCobRBody, signed, retried
 * and logged as the gateway's events, bent by the delivery faults of the charge's creation.
 */

const HOOK = 'https://erp.example.com/api/webhookcobr'
const callbackBody = apiPixBacen.requestBody('WebhookCobRBody')

async function receiver (t: Test): Promise<Receiver> {
  const r = await startReceiver()
  t.teardown(() => r.close())
  return r
}

t.test('PUT, GET and DELETE /webhookcobr: one URL per account, every answer as BACEN declares it', async t => {
  const { app, acc, call } = await cobrApp(t)
  const put = await call('PUT', '/v2/webhookcobr', { webhookUrl: HOOK })
  t.equal(put.statusCode, 200, put.body)
  checkAnswer(t, put, 'PUT', '/webhookcobr')
  const read = await call('GET', '/v2/webhookcobr')
  t.equal(read.statusCode, 200)
  checkAnswer(t, read, 'GET', '/webhookcobr')
  t.same(read.json(), { webhookUrl: HOOK, criacao: T0 })
  t.equal((await call('PUT', '/v2/webhookcobr', { webhookUrl: `${HOOK}/v2` })).statusCode, 200)
  t.same((await call('GET', '/v2/webhookcobr')).json(), { webhookUrl: `${HOOK}/v2`, criacao: T0 }, 'a new URL replaces the account\'s, its criacao kept')
  t.equal((await call('GET', '/v2/webhook?inicio=2026-01-01T00:00:00Z')).json().webhooks.length, 0, 'not a webhook per key')

  const invalid = await call('PUT', '/v2/webhookcobr', { webhookUrl: 'ftp://erp.example.com/x' })
  t.equal(invalid.statusCode, 400)
  t.equal(invalid.json().type, PROBLEM_TYPE + 'WebhookCobROperacaoInvalida')
  checkAnswer(t, invalid, 'PUT', '/webhookcobr')
  const missing = await call('PUT', '/v2/webhookcobr', {})
  t.equal(missing.statusCode, 400)
  checkAnswer(t, missing, 'PUT', '/webhookcobr')
  t.same((await call('GET', '/v2/webhookcobr')).json().webhookUrl, `${HOOK}/v2`, 'nothing refused was kept')

  const readOnly = await oauthToken(app, acc, 'webhookcobr.read')
  const denied = await app.inject({ method: 'DELETE', url: '/v2/webhookcobr', headers: bearer(readOnly) })
  t.equal(denied.statusCode, 403)
  checkAnswer(t, denied, 'DELETE', '/webhookcobr')

  const removed = await call('DELETE', '/v2/webhookcobr')
  t.equal(removed.statusCode, 204)
  checkAnswer(t, removed, 'DELETE', '/webhookcobr')
  for (const method of ['GET', 'DELETE'] as const) {
    const none = await call(method, '/v2/webhookcobr')
    t.equal(none.statusCode, 404, method)
    t.equal(none.json().type, PROBLEM_TYPE + 'NaoEncontrado')
    checkAnswer(t, none, method, '/webhookcobr')
  }
})

t.test('each change of a charge arrives at {webhookUrl}/cobr, signed, as BACEN\'s WebhookCobRBody', async t => {
  const { app, acc, call, idRec, body } = await cobrApp(t)
  const r = await receiver(t)
  t.equal((await call('PUT', '/v2/webhookcobr', { webhookUrl: r.url })).statusCode, 200)
  const txid = aTxid(1)
  t.equal((await call('PUT', `/v2/cobr/${txid}`, body())).statusCode, 201)
  await advanceTo(app, '2026-03-10T15:00:01Z')
  const activated = await r.next()
  t.equal(activated.method, 'POST')
  t.equal(activated.path, '/hook/cobr')
  t.equal(activated.headers['x-sandbox-event-type'], 'cobr')
  t.ok(callbackBody(activated.json()), `WebhookCobRBody: ${JSON.stringify(callbackBody.errors ?? [])}`)
  t.notOk(callbackBody({ cobsr: [{ txid, status: 'ATIVA' }] }), 'the schema is no blank check')
  t.match(activated.json(), { cobsr: [{ idRec, txid, status: 'ATIVA', tentativas: [{ tipo: 'AGND', status: 'AGENDADA' }] }] })
  const expected = 'v1=' + createHmac('sha256', 'pix-sandbox-webhook-secret').update(`${activated.headers['x-sandbox-timestamp']}.${activated.body}`).digest('hex')
  t.equal(activated.headers['x-sandbox-signature'], expected, 'the gateway\'s signature recipe')

  await advanceTo(app, '2026-03-20T11:00:00Z')
  const paid = await r.next()
  t.ok(callbackBody(paid.json()), `WebhookCobRBody: ${JSON.stringify(callbackBody.errors ?? [])}`)
  const shown = (await call('GET', `/v2/cobr/${txid}`)).json()
  t.same(paid.json(), { cobsr: [{ idRec: shown.idRec, txid, status: 'CONCLUIDA', atualizacao: shown.atualizacao, tentativas: shown.tentativas, pix: shown.pix }] }, 'what GET /cobr/{txid} shows of it')

  await app.sandbox.webhooks.idle()
  const deliveries = await cobrDeliveries(app, acc.accountId)
  t.match(deliveries, [
    { status: 'delivered', url: `${r.url}/cobr`, transactionId: txid },
    { status: 'delivered', url: `${r.url}/cobr`, transactionId: txid },
  ])
  t.equal(deliveries.length, 2, 'one callback per change: the activation, the payment')
})

t.test('a failed callback is retried on the sandbox clock; WEBHOOK_DROP on the creation drops them all', async t => {
  const { app, acc, call, body } = await cobrApp(t)
  const r = await receiver(t)
  r.script([500])
  t.equal((await call('PUT', '/v2/webhookcobr', { webhookUrl: r.url })).statusCode, 200)
  t.equal((await call('PUT', `/v2/cobr/${aTxid(1)}`, body())).statusCode, 201)
  await advanceTo(app, '2026-03-10T15:00:01Z')
  const first = await r.next()
  await app.sandbox.webhooks.idle()
  t.match(await cobrDeliveries(app, acc.accountId), [{ status: 'pending' }])
  await advanceTo(app, '2026-03-10T15:10:00Z')
  const second = await r.next()
  t.equal(second.headers['x-sandbox-delivery-id'], first.headers['x-sandbox-delivery-id'])
  t.equal(second.body, first.body)

  const dropped = aTxid(2)
  t.equal((await call('PUT', `/v2/cobr/${dropped}`, body({ calendario: { dataDeVencimento: '2026-04-20' } }), { 'x-sandbox-scenario': 'WEBHOOK_DROP' })).statusCode, 201)
  await advanceTo(app, '2026-04-10T03:00:01Z')
  await app.sandbox.webhooks.idle()
  const ofDropped = (await cobrDeliveries(app, acc.accountId)).filter(d => d.transactionId === dropped)
  t.match(ofDropped, [{ status: 'dropped', body: { cobsr: [{ txid: dropped, status: 'ATIVA' }] } }], 'logged, never sent')
})
