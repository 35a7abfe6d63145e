import t from 'tap'
import { advance, buildTestApp, fixtureAccount } from '../helpers/app.js'
import { apiPixBacen, checkAnswer, oauthToken } from '../helpers/api-pix.js'
import { schemaValidator } from '../helpers/api-pix-schemas.js'
import { startReceiver } from '../helpers/receiver.js'
import { client, control, recBody } from '../helpers/rec.js'

/**
 * API Pix's webhook of recurrences (docs/api-pix.md, Pix Automático): PUT, GET and DELETE /webhookrec,
 * and the notification each status change of a recurrence sends to `{webhookUrl}/rec` through the
 * sandbox's delivery machinery (signed, retried, logged, bent by delivery scenarios).
 */

const recNotification = schemaValidator(apiPixBacen.doc.components)('RecNotification')

t.test('webhookrec: configure, read, replace, delete; every answer validates', async t => {
  const app = await buildTestApp(t)
  const call = client(app, await oauthToken(app))
  const none = await call('GET', '/v2/webhookrec')
  t.equal(none.statusCode, 404)
  checkAnswer(t, none, 'GET', '/webhookrec')

  const put = await call('PUT', '/v2/webhookrec', { webhookUrl: 'https://usuario.recebedor.com/api/webhookrec/' })
  t.equal(put.statusCode, 200, put.body)
  const got = await call('GET', '/v2/webhookrec')
  checkAnswer(t, got, 'GET', '/webhookrec')
  t.match(got.json(), { webhookUrl: 'https://usuario.recebedor.com/api/webhookrec', criacao: String })
  t.same(app.sandbox.webhooks.registrations.list(fixtureAccount.id).filter(w => w.eventType === 'rec').map(w => w.url), ['https://usuario.recebedor.com/api/webhookrec/rec'], 'the sandbox calls {webhookUrl}/rec')

  await call('PUT', '/v2/webhookrec', { webhookUrl: 'https://outro.example.com/hooks' })
  t.equal((await call('GET', '/v2/webhookrec')).json().webhookUrl, 'https://outro.example.com/hooks', 'one URL per account: the new one replaces the old')
  t.equal(app.sandbox.webhooks.registrations.list(fixtureAccount.id).filter(w => w.eventType === 'rec').length, 1)

  for (const webhookUrl of ['http://usuario.recebedor.com/hooks', 'not a url', 42]) {
    const bad = await call('PUT', '/v2/webhookrec', { webhookUrl })
    t.equal(bad.statusCode, 400, String(webhookUrl))
    checkAnswer(t, bad, 'PUT', '/webhookrec')
  }
  t.equal((await call('GET', '/v2/webhookrec')).json().webhookUrl, 'https://outro.example.com/hooks', 'a refused URL changes nothing')

  const deleted = await call('DELETE', '/v2/webhookrec')
  t.equal(deleted.statusCode, 204)
  t.equal((await call('GET', '/v2/webhookrec')).statusCode, 404)
  const again = await call('DELETE', '/v2/webhookrec')
  t.equal(again.statusCode, 404)
  checkAnswer(t, again, 'DELETE', '/webhookrec')
  t.equal((await client(app, await oauthToken(app, undefined, 'rec.read'))('GET', '/v2/webhookrec')).statusCode, 403)
})

t.test('webhookrec: each status change is POSTed to {webhookUrl}/rec as API Pix\'s RecNotification, signed, and logged', async t => {
  const receiver = await startReceiver()
  t.teardown(() => receiver.close())
  const app = await buildTestApp(t)
  const call = client(app, await oauthToken(app))
  // The control plane registers an http receiver (PUT /webhookrec asks for HTTPS, as API Pix does).
  const registered = await app.inject({ method: 'POST', url: '/__sandbox/webhooks', payload: { accountId: fixtureAccount.id, eventType: 'rec', url: `${receiver.url}/rec` } })
  t.equal(registered.statusCode, 201, registered.body)
  t.equal((await call('GET', '/v2/webhookrec')).json().webhookUrl, receiver.url)

  const rec = (await call('POST', '/v2/rec', recBody())).json()
  const created = await receiver.nth(1)
  t.equal(created.path, new URL(`${receiver.url}/rec`).pathname)
  t.ok(created.headers['x-sandbox-signature'], 'signed as every delivery')
  t.match(created.json(), { recs: [{ idRec: rec.idRec, status: 'CRIADA', ativacao: { tipoJornada: 'AGUARDANDO_DEFINICAO' } }] })
  t.ok(recNotification(created.json().recs[0]), 'RecNotification')

  await control(app, `/__sandbox/recurrences/${rec.idRec}/approve`, { jornada: 'JORNADA_2' })
  const approved = (await receiver.nth(2)).json().recs[0]
  t.ok(recNotification(approved))
  t.match(approved, { status: 'APROVADA', ativacao: { tipoJornada: 'JORNADA_2' }, atualizacao: [{ status: 'CRIADA' }, { status: 'APROVADA' }] })
  await call('PATCH', `/v2/rec/${rec.idRec}`, { status: 'CANCELADA' })
  const cancelled = (await receiver.nth(3)).json().recs[0]
  t.ok(recNotification(cancelled))
  t.match(cancelled, { status: 'CANCELADA', encerramento: { cancelamento: { solicitante: 'USUARIO_RECEBEDOR', codigo: 'SLCR' } } })

  const log = (await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries?accountId=${fixtureAccount.id}&eventType=rec` })).json().deliveries
  t.equal(log.length, 3, 'each delivery logged')
})

t.test('webhookrec: a failing receiver is retried; a delivery scenario on POST /rec bends the recurrence\'s notifications', async t => {
  const receiver = await startReceiver()
  t.teardown(() => receiver.close())
  receiver.script([500])
  const app = await buildTestApp(t)
  const call = client(app, await oauthToken(app))
  await app.inject({ method: 'POST', url: '/__sandbox/webhooks', payload: { accountId: fixtureAccount.id, eventType: 'rec', url: `${receiver.url}/rec` } })
  const rec = (await call('POST', '/v2/rec', recBody())).json()
  await receiver.nth(1)
  // Once the 500 is recorded, the retry is due a backoff later on the sandbox clock.
  for (let i = 0; i < 500; i++) {
    const [d] = (await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries?accountId=${fixtureAccount.id}&eventType=rec` })).json().deliveries
    if (d?.attempts.length === 1 && d.nextAttemptAt !== null) break
    await new Promise(resolve => setTimeout(resolve, 10))
  }
  await advance(app, 60_000)
  const retried = await receiver.nth(2)
  t.equal(retried.json().recs[0].idRec, rec.idRec, 'the same notification again after a 500')

  const dropped = await app.inject({ method: 'POST', url: '/v2/rec', headers: { authorization: `Bearer ${await oauthToken(app)}`, 'x-sandbox-scenario': 'WEBHOOK_DROP' }, payload: recBody() })
  t.equal(dropped.statusCode, 201, dropped.body)
  await control(app, `/__sandbox/recurrences/${dropped.json().idRec}/reject`)
  const log = (await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries?accountId=${fixtureAccount.id}&eventType=rec` })).json().deliveries as Array<{ status: string, body: { recs: Array<{ idRec: string }> } }>
  const ofDropped = log.filter(d => d.body.recs[0].idRec === dropped.json().idRec)
  t.same(ofDropped.map(d => d.status), ['dropped', 'dropped'], 'its creation and its rejection, never sent')
})
