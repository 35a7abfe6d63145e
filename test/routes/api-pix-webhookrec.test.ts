import t from 'tap'
import { advance, buildTestApp, fixtureAccount, noMtlsCheck, T0 } from '../helpers/app.js'
import { apiPixBacen, checkAnswer, oauthToken, PROBLEM_TYPE } from '../helpers/api-pix.js'
import { schemaValidator } from '../helpers/api-pix-schemas.js'
import { startReceiver } from '../helpers/receiver.js'
import { client, control, recBody } from '../helpers/rec.js'

/**
 * API Pix's webhook of recurrences (docs/api-pix.md, Pix Automático): PUT, GET and DELETE /webhookrec,
 * a webhook of API Pix as /webhookcobr's (the same record, URL rules and answers), and the notification
 * each status change of a recurrence sends to `{webhookUrl}/rec` through the sandbox's delivery
 * machinery (signed, retried, logged, bent by delivery scenarios).
 */

const recNotification = schemaValidator(apiPixBacen.doc.components)('RecNotification')

t.test('webhookrec: configure, read, replace, delete; every answer validates', async t => {
  const app = await buildTestApp(t)
  await noMtlsCheck(app, fixtureAccount.id) // its webhooks name example domains
  const call = client(app, await oauthToken(app))
  const none = await call('GET', '/v2/webhookrec')
  t.equal(none.statusCode, 404)
  checkAnswer(t, none, 'GET', '/webhookrec')

  const put = await call('PUT', '/v2/webhookrec', { webhookUrl: 'https://usuario.recebedor.com/api/webhookrec/' })
  t.equal(put.statusCode, 200, put.body)
  checkAnswer(t, put, 'PUT', '/webhookrec')
  const got = await call('GET', '/v2/webhookrec')
  checkAnswer(t, got, 'GET', '/webhookrec')
  t.same(got.json(), { webhookUrl: 'https://usuario.recebedor.com/api/webhookrec/', criacao: T0 })
  const kept = async () => (await app.inject({ method: 'GET', url: `/__sandbox/api-pix-webhooks?accountId=${fixtureAccount.id}` })).json().webhooks
  t.same(await kept(), [{ webhookUrl: 'https://usuario.recebedor.com/api/webhookrec/', criacao: T0, accountId: fixtureAccount.id, callback: 'rec', callbackUrl: 'https://usuario.recebedor.com/api/webhookrec/rec', mtlsCheck: 'unchecked' }], 'a webhook of API Pix of the whole account, of callback rec')
  t.same(app.sandbox.webhooks.registrations.list(fixtureAccount.id).filter(w => w.eventType === 'rec'), [], 'no registration of the gateway')

  await call('PUT', '/v2/webhookrec', { webhookUrl: 'https://outro.example.com/hooks' })
  t.same((await call('GET', '/v2/webhookrec')).json(), { webhookUrl: 'https://outro.example.com/hooks', criacao: T0 }, 'one URL per account: the new one replaces the old, its criacao kept')
  t.equal((await kept()).length, 1)

  for (const webhookUrl of ['ftp://usuario.recebedor.com/hooks', 'https://user:secret@usuario.recebedor.com/hooks', 'not a url', '']) {
    const bad = await call('PUT', '/v2/webhookrec', { webhookUrl })
    t.equal(bad.statusCode, 400, String(webhookUrl))
    t.equal(bad.json().type, PROBLEM_TYPE + 'WebhookRecOperacaoInvalida')
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
  await noMtlsCheck(app, fixtureAccount.id) // its webhooks name example domains
  const call = client(app, await oauthToken(app))
  t.equal((await call('PUT', '/v2/webhookrec', { webhookUrl: receiver.url })).statusCode, 200)

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
  t.match(log, Array(3).fill({ webhookId: null, url: `${receiver.url}/rec` }), 'to the webhook of API Pix, no registration of the gateway')
})

t.test('webhookrec: a failing receiver is retried; a delivery scenario on POST /rec bends the recurrence\'s notifications', async t => {
  const receiver = await startReceiver()
  t.teardown(() => receiver.close())
  receiver.script([500])
  const app = await buildTestApp(t)
  await noMtlsCheck(app, fixtureAccount.id) // its webhooks name example domains
  const call = client(app, await oauthToken(app))
  await call('PUT', '/v2/webhookrec', { webhookUrl: receiver.url })
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

t.test('webhookrec and webhookcobr: the same URL rules, each URL accepted or refused by both alike', async t => {
  const app = await buildTestApp(t)
  await noMtlsCheck(app, fixtureAccount.id) // its webhooks name example domains
  const call = client(app, await oauthToken(app))
  const cases: Array<[string, number]> = [
    ['http://erp.example.com/hooks', 200],
    ['https://erp.example.com/hooks?conta=1', 200],
    ['ftp://erp.example.com/hooks', 400],
    ['https://user:secret@erp.example.com/hooks', 400],
    ['erp.example.com/hooks', 400],
    [`http://127.0.0.1:${app.sandbox.config.port}/__sandbox/reset`, 400],
  ]
  for (const [webhookUrl, status] of cases) {
    for (const path of ['/webhookrec', '/webhookcobr']) {
      const put = await call('PUT', `/v2${path}`, { webhookUrl })
      t.equal(put.statusCode, status, `${path} ${webhookUrl}`)
      checkAnswer(t, put, 'PUT', path)
    }
    const [rec, cobr] = [(await call('GET', '/v2/webhookrec')).json(), (await call('GET', '/v2/webhookcobr')).json()]
    t.same(rec, cobr, `both keep ${webhookUrl} alike`)
  }
  t.same((await app.inject({ method: 'GET', url: `/__sandbox/api-pix-webhooks?accountId=${fixtureAccount.id}` })).json().webhooks.map((w: { callback: string }) => w.callback).sort(), ['cobr', 'rec'], 'one record each')
})

t.test('webhookrec: a registration of event type rec on the control plane still receives, beside the webhook of API Pix', async t => {
  const receiver = await startReceiver()
  t.teardown(() => receiver.close())
  const app = await buildTestApp(t)
  await noMtlsCheck(app, fixtureAccount.id) // its webhooks name example domains
  const call = client(app, await oauthToken(app))
  const registered = await app.inject({ method: 'POST', url: '/__sandbox/webhooks', payload: { accountId: fixtureAccount.id, eventType: 'rec', url: `${receiver.url}/gateway` } })
  t.equal(registered.statusCode, 201, registered.body)
  t.equal((await call('GET', '/v2/webhookrec')).statusCode, 404, 'the gateway\'s registration is no /webhookrec')
  const { idRec } = (await call('POST', '/v2/rec', recBody())).json()
  t.equal((await receiver.nth(1)).path, new URL(`${receiver.url}/gateway`).pathname)

  t.equal((await call('PUT', '/v2/webhookrec', { webhookUrl: receiver.url })).statusCode, 200)
  await control(app, `/__sandbox/recurrences/${idRec}/approve`)
  const paths = [(await receiver.nth(2)).path, (await receiver.nth(3)).path].sort()
  t.same(paths, [new URL(`${receiver.url}/gateway`).pathname, new URL(`${receiver.url}/rec`).pathname].sort(), 'both told of the approval')
  const log = (await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries?accountId=${fixtureAccount.id}&eventType=rec` })).json().deliveries as Array<{ webhookId: number | null, body: { recs: Array<{ status: string }> } }>
  t.same(log.map(d => [d.webhookId === null ? 'webhookrec' : 'registration', d.body.recs[0].status]).sort(), [['registration', 'APROVADA'], ['registration', 'CRIADA'], ['webhookrec', 'APROVADA']])
})

t.test('webhookrec: with no receiver at all, each change is still logged once (no_receiver)', async t => {
  const app = await buildTestApp(t)
  await noMtlsCheck(app, fixtureAccount.id) // its webhooks name example domains
  const call = client(app, await oauthToken(app))
  await call('POST', '/v2/rec', recBody())
  const log = (await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries?accountId=${fixtureAccount.id}&eventType=rec` })).json().deliveries
  t.match(log, [{ status: 'no_receiver', body: { recs: [{ status: 'CRIADA' }] } }])
  t.equal(log.length, 1)
})

t.test('webhookrec: a snapshot holding a registration of event type rec (the form PUT /webhookrec was kept in) imports as that registration, which keeps receiving', async t => {
  const receiver = await startReceiver()
  t.teardown(() => receiver.close())
  const app = await buildTestApp(t)
  await noMtlsCheck(app, fixtureAccount.id) // its webhooks name example domains
  const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  const id = Math.max(0, ...Object.keys(snapshot.webhooks).map(Number)) + 1
  snapshot.webhooks[id] = { id, accountId: fixtureAccount.id, eventType: 'rec', url: `${receiver.url}/rec`, headers: {}, isActive: true, version: 1, createdAt: T0, updatedAt: T0 }
  const imported = await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })
  t.equal(imported.statusCode, 200, imported.body)
  const call = client(app, await oauthToken(app))
  t.equal((await call('GET', '/v2/webhookrec')).statusCode, 404, 'no webhook of API Pix')
  const { idRec } = (await call('POST', '/v2/rec', recBody())).json()
  const told = await receiver.nth(1)
  t.equal(told.path, new URL(`${receiver.url}/rec`).pathname)
  t.match(told.json(), { recs: [{ idRec, status: 'CRIADA' }] })
})

t.test('webhookrec: the idRec names a recurrence\'s notifications in the log, to wait on; WEBHOOK_OUT_OF_ORDER and WEBHOOK_DUPLICATE of POST /rec bend them at every receiver', async t => {
  const receiver = await startReceiver()
  t.teardown(() => receiver.close())
  const app = await buildTestApp(t)
  await noMtlsCheck(app, fixtureAccount.id) // its webhooks name example domains
  const token = await oauthToken(app)
  const call = client(app, token)
  t.equal((await call('PUT', '/v2/webhookrec', { webhookUrl: receiver.url })).statusCode, 200)
  const registered = await app.inject({ method: 'POST', url: '/__sandbox/webhooks', payload: { accountId: fixtureAccount.id, eventType: 'rec', url: `${receiver.url}/gateway` } })
  t.equal(registered.statusCode, 201, registered.body)
  const postRec = (scenario: string) => app.inject({ method: 'POST', url: '/v2/rec', headers: { authorization: `Bearer ${token}`, 'x-sandbox-scenario': scenario }, payload: recBody() })
  const paths = { webhookrec: new URL(`${receiver.url}/rec`).pathname, gateway: new URL(`${receiver.url}/gateway`).pathname }

  // Held back until the approval, which each receiver then gets first.
  const held = await postRec('WEBHOOK_OUT_OF_ORDER')
  t.equal(held.statusCode, 201, held.body)
  const { idRec } = held.json()
  await control(app, `/__sandbox/recurrences/${idRec}/approve`)
  const fourth = await receiver.nth(4)
  t.ok(fourth, 'both notifications at both receivers')
  for (const path of Object.values(paths)) {
    const seen = receiver.requests.filter(r => r.path === path).map(r => r.json().recs[0])
    t.same(seen.map(n => [n.idRec, n.status]), [[idRec, 'APROVADA'], [idRec, 'CRIADA']], `${path}: the later notification first`)
  }
  const waited = await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries/wait?transactionId=${idRec}&status=delivered&timeoutMs=5000` })
  t.equal(waited.statusCode, 200, waited.body)
  t.match(waited.json(), { eventType: 'rec', transactionId: idRec, body: { recs: [{ idRec }] } }, 'a wait on the recurrence finds its notification')
  const ofRec = (await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries?transactionId=${idRec}` })).json().deliveries as Array<{ eventId: string, webhookId: number | null }>
  t.equal(ofRec.length, 4, 'every notification of the recurrence, at both receivers')
  t.equal(new Set(ofRec.map(d => d.eventId)).size, 2, 'each status change one event, at both receivers')

  const twice = await postRec('WEBHOOK_DUPLICATE')
  t.equal(twice.statusCode, 201, twice.body)
  await receiver.nth(8)
  const copies = receiver.requests.slice(4)
  t.same(copies.map(r => r.json().recs[0].idRec), Array(4).fill(twice.json().idRec))
  for (const path of Object.values(paths)) {
    const ids = copies.filter(r => r.path === path).map(r => r.headers['x-sandbox-delivery-id'])
    t.equal(ids.length, 2, `${path}: the creation's notification twice`)
    t.equal(ids[0], ids[1], `${path}: with the same delivery id`)
  }
})
