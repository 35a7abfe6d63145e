import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../server/app.js'
import { statusOf } from '../helpers/errors.js'
import { bearer, buildTestApp, newAccount, tokenFor } from '../helpers/app.js'
import { examplePayload } from '../helpers/webhooks.js'

/**
 * Registration rules (docs/gateway.md §2.11, 4.1 items 3-4, 8) on the control plane and on the public routes in
 * both modes, and SANDBOX_WEBHOOK_URL. No delivery happens here (no receiver is listening).
 */
const reg = (app: FastifyInstance, body: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: '/__sandbox/webhooks', payload: { accountId: 1, eventType: 'cash_in', ...body } })
const list = async (app: FastifyInstance, accountId = 1) => (await app.inject({ method: 'GET', url: `/__sandbox/webhooks?accountId=${accountId}` })).json()

t.test('control plane: register, list, update by same URL, deactivate, delete', async t => {
  const app = await buildTestApp(t)
  const created = await reg(app, { url: 'http://127.0.0.1:9/a', headers: [{ key: 'X-Key', value: 'one' }] })
  t.equal(created.statusCode, 201)
  t.match(created.json(), { id: Number, accountId: 1, eventType: 'cash_in', url: 'http://127.0.0.1:9/a', headers: { 'X-Key': 'one' }, isActive: true, version: 1, createdAt: '2026-03-10T15:00:00.000Z' })
  const other = (await reg(app, { url: 'http://127.0.0.1:9/b' })).json()

  const again = await reg(app, { url: 'http://127.0.0.1:9/a', headers: [{ key: 'X-Key', value: 'two' }] })
  t.equal(again.statusCode, 200, 'the same URL for the same event updates')
  t.equal(again.json().id, created.json().id)
  t.equal(again.json().version, 2)
  t.same(again.json().headers, { 'X-Key': 'two' })
  const after = await list(app)
  t.equal(after.total, 2)
  t.same(after.webhooks.find((w: any) => w.id === other.id), other, 'the other URL is untouched')

  const sameUrlOtherEvent = await reg(app, { url: 'http://127.0.0.1:9/a', eventType: 'cash_out' })
  t.equal(sameUrlOtherEvent.statusCode, 201, 'another event type is another registration')

  const off = await app.inject({ method: 'PATCH', url: `/__sandbox/webhooks/${other.id}`, payload: { isActive: false } })
  t.equal(off.statusCode, 200)
  t.equal(off.json().isActive, false)
  t.equal(off.json().version, 1, 'deactivating is not a new version')
  const headers = await app.inject({ method: 'PATCH', url: `/__sandbox/webhooks/${other.id}`, payload: { headers: [{ key: 'Authorization', value: 'Bearer x' }] } })
  t.equal(headers.json().version, 2)

  const del = await app.inject({ method: 'DELETE', url: `/__sandbox/webhooks/${other.id}` })
  t.equal(del.statusCode, 204)
  t.equal((await list(app)).total, 2)
  const gone = await app.inject({ method: 'DELETE', url: `/__sandbox/webhooks/${other.id}` })
  t.equal(gone.statusCode, 404)
  t.equal(gone.json().code, 'WEBHOOK_NOT_FOUND')
  const patchGone = await app.inject({ method: 'PATCH', url: `/__sandbox/webhooks/${other.id}`, payload: { isActive: true } })
  t.equal(patchGone.statusCode, 404)
})

t.test('at most 3 active URLs per event type and account', async t => {
  const app = await buildTestApp(t)
  const ids: number[] = []
  for (const n of [1, 2, 3]) ids.push((await reg(app, { url: `https://receiver.test/${n}` })).json().id)
  const fourth = await reg(app, { url: 'https://receiver.test/4' })
  t.equal(fourth.statusCode, 400)
  t.equal(fourth.json().code, 'WEBHOOK_LIMIT_REACHED')
  t.match(fourth.json().message, /cash_in already has 3 active URLs/)
  t.equal((await list(app)).total, 3, 'nothing was added')

  t.equal((await reg(app, { url: 'https://receiver.test/1', headers: [{ key: 'X-A', value: '1' }] })).statusCode, 200, 'updating one of the 3 is fine')
  t.equal((await reg(app, { url: 'https://receiver.test/4', eventType: 'cash_out' })).statusCode, 201, 'the limit is per event type')
  const other = await newAccount(app)
  t.equal((await reg(app, { accountId: other.accountId, url: 'https://receiver.test/4' })).statusCode, 201, 'and per account')

  await app.inject({ method: 'PATCH', url: `/__sandbox/webhooks/${ids[0]}`, payload: { isActive: false } })
  t.equal((await reg(app, { url: 'https://receiver.test/4' })).statusCode, 201, 'a deactivated URL frees a place')
  const reactivate = await app.inject({ method: 'PATCH', url: `/__sandbox/webhooks/${ids[0]}`, payload: { isActive: true } })
  t.equal(reactivate.statusCode, 400, 'reactivating would make 4')
  t.equal(reactivate.json().code, 'WEBHOOK_LIMIT_REACHED')
  const reRegister = await reg(app, { url: 'https://receiver.test/1' })
  t.equal(reRegister.statusCode, 400, 're-registering an inactive URL reactivates it, within the limit')
})

t.test('custom headers: at most 5, reserved names refused in any case, no control characters', async t => {
  const app = await buildTestApp(t)
  const six = Array.from({ length: 6 }, (_, i) => ({ key: `X-H${i}`, value: 'v' }))
  const tooMany = await reg(app, { url: 'http://r.test/', headers: six })
  t.equal(tooMany.statusCode, 400)
  t.match(tooMany.json().message, /headers must have at most 5 items/)
  t.equal((await reg(app, { url: 'http://r.test/', headers: six.slice(0, 5) })).statusCode, 201, 'five are fine')

  for (const name of ['host', 'Content-Length', 'CONNECTION', 'Transfer-Encoding', 'content-type', 'User-Agent']) {
    const res = await reg(app, { url: 'http://r.test/blocked', headers: [{ key: 'X-Ok', value: '1' }, { key: name, value: 'x' }] })
    t.equal(res.statusCode, 400, name)
    t.equal(res.json().code, 'WEBHOOK_HEADER_NOT_ALLOWED')
    t.match(res.json().message, `"${name}" is not allowed`, 'the message names the header')
  }
  const injected = await reg(app, { url: 'http://r.test/crlf', headers: [{ key: 'X-A', value: 'a\r\nX-Evil: 1' }] })
  t.equal(injected.statusCode, 400)
  t.equal(injected.json().code, 'INVALID_WEBHOOK_HEADER')
  const badName = await reg(app, { url: 'http://r.test/crlf', headers: [{ key: 'X A', value: 'a' }] })
  t.equal(badName.statusCode, 400)
  const dup = await reg(app, { url: 'http://r.test/dup', headers: [{ key: 'X-A', value: '1' }, { key: 'x-a', value: '2' }] })
  t.equal(dup.statusCode, 400)
  t.equal((await list(app)).total, 1, 'refused registrations change nothing')
})

t.test('control plane: bad URL, event type, account and body', async t => {
  const app = await buildTestApp(t)
  const ftp = await reg(app, { url: 'ftp://r.test/x' })
  t.equal(ftp.statusCode, 400)
  t.equal(ftp.json().code, 'INVALID_WEBHOOK_URL')
  t.equal((await reg(app, { url: 'not a url' })).json().code, 'INVALID_WEBHOOK_URL')
  t.equal((await reg(app, { url: 'https://user:pw@r.test/' })).statusCode, 400)
  const event = await reg(app, { url: 'http://r.test/', eventType: 'cash_sideways' })
  t.equal(event.statusCode, 400)
  t.match(event.json().message, /eventType must be one of: cash_in, cash_out, refund_in, refund_out, med_created, med_accepted, med_rejected/)
  const account = await reg(app, { accountId: 999, url: 'http://r.test/' })
  t.equal(account.statusCode, 404)
  t.equal(account.json().code, 'ACCOUNT_NOT_FOUND')
  const missing = await app.inject({ method: 'POST', url: '/__sandbox/webhooks', payload: { accountId: 1 } })
  t.equal(missing.statusCode, 400)
  t.match(missing.json().message, /eventType is required/)
  t.equal((await list(app)).total, 0)
})

t.test('removing an account through reset drops its registrations and deliveries', async t => {
  const app = await buildTestApp(t)
  const other = await newAccount(app)
  await reg(app, { accountId: other.accountId, url: 'http://127.0.0.1:9/x' })
  app.sandbox.webhooks.emit({ accountId: other.accountId, eventType: 'med_created', payload: examplePayload('med_created') })
  t.equal((await list(app, other.accountId)).total, 1)
  const reset = await app.inject({ method: 'POST', url: '/__sandbox/reset', payload: { accountId: other.accountId } })
  t.equal(reset.statusCode, 200)
  t.equal((await list(app, other.accountId)).total, 0)
  t.same((await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries?accountId=${other.accountId}` })).json().deliveries, [])
})

t.test('public routes, disabled (the default): as the real gateway answers today', async t => {
  const app = await buildTestApp(t)
  const token = await tokenFor(app)
  await reg(app, { url: 'https://exists.test/' })
  const post = await app.inject({ method: 'POST', url: '/api/webhooks', headers: bearer(token), payload: { url: 'https://new.test/', eventType: 'cash_out' } })
  t.equal(post.statusCode, 200)
  t.same(post.json(), { success: false, message: 'Rota desativada' })
  const junk = await app.inject({ method: 'POST', url: '/api/webhooks', headers: bearer(token), payload: { whatever: true } })
  t.same(junk.json(), { success: false, message: 'Rota desativada' }, 'whatever the body')
  t.equal((await list(app)).total, 1, 'nothing persisted')
  const get = await app.inject({ method: 'GET', url: '/api/webhooks', headers: bearer(token) })
  t.equal(get.statusCode, 200)
  t.same(get.json(), { accountId: 1, webhooks: [], total: 0 }, 'empty even when webhooks exist')
  const anon = await app.inject({ method: 'GET', url: '/api/webhooks' })
  t.equal(anon.statusCode, 401)
  t.equal(anon.json().path, '/webhooks', 'extended shape')
  t.equal((await app.inject({ method: 'POST', url: '/api/webhooks', payload: {} })).statusCode, 401)
})

t.test('public routes, enabled: the intended behaviour with the errors of 7.11', async t => {
  const app = await buildTestApp(t, { publicWebhooks: 'enabled' })
  const token = await tokenFor(app)
  const post = (payload: Record<string, unknown>) => app.inject({ method: 'POST', url: '/api/webhooks', headers: bearer(token), payload })

  const created = await post({ url: 'https://a.test/hook', eventType: 'cash_out', headers: [{ key: 'X-Secret', value: 's' }] })
  t.equal(created.statusCode, 200)
  t.same(created.json(), { success: true, message: 'Webhook cadastrado com sucesso' })
  const updated = await post({ url: 'https://a.test/hook', eventType: 'cash_out', headers: [{ key: 'X-Secret', value: 't' }] })
  t.same(updated.json(), { success: true, message: 'Webhook atualizado com sucesso' })

  const http = await post({ url: 'http://a.test/hook', eventType: 'cash_out' })
  t.equal(http.statusCode, 400)
  t.match(http.json(), { statusCode: 400, path: '/webhooks', method: 'POST', code: 'INVALID_WEBHOOK_URL', errorCode: 'INVALID_WEBHOOK_URL', message: 'A URL do webhook deve usar HTTPS', userMessage: String, errorId: String })
  const badType = await post({ url: 'https://a.test/hook', eventType: 'pix' })
  t.equal(badType.statusCode, 400)
  t.equal(badType.json().code, 'HTTP_ERROR')
  t.ok(Array.isArray(badType.json().message), 'validation errors list one message per field')
  const blocked = await post({ url: 'https://a.test/hook2', eventType: 'cash_out', headers: [{ key: 'Host', value: 'x' }] })
  t.equal(blocked.statusCode, 400)
  t.equal(blocked.json().code, 'WEBHOOK_HEADER_NOT_ALLOWED')
  const six = await post({ url: 'https://a.test/hook2', eventType: 'cash_out', headers: Array.from({ length: 6 }, (_, i) => ({ key: `X-${i}`, value: '' })) })
  t.equal(six.statusCode, 400)
  for (const n of [2, 3]) t.equal((await post({ url: `https://a.test/${n}`, eventType: 'cash_out' })).statusCode, 200)
  const fourth = await post({ url: 'https://a.test/4', eventType: 'cash_out' })
  t.equal(fourth.statusCode, 400)
  t.equal(fourth.json().code, 'WEBHOOK_LIMIT_REACHED')

  const get = await app.inject({ method: 'GET', url: '/api/webhooks', headers: bearer(token) })
  t.equal(get.statusCode, 200)
  const body = get.json()
  t.equal(body.accountId, 1)
  t.equal(body.total, 3)
  t.same(Object.keys(body.webhooks[0]).sort(), ['createdAt', 'headers', 'id', 'isActive', 'type', 'url'])
  t.match(body.webhooks[0], { type: 'cash_out', url: 'https://a.test/hook', headers: { 'X-Secret': 't' }, isActive: true })

  const other = await newAccount(app)
  const theirs = await app.inject({ method: 'GET', url: '/api/webhooks', headers: bearer(other.token) })
  t.same(theirs.json(), { accountId: other.accountId, webhooks: [], total: 0 }, 'an account sees only its own')
})

t.test('SANDBOX_WEBHOOK_URL registers every event type of the default account, once, and again after a full reset', async t => {
  const url = 'http://127.0.0.1:9/ci-receiver'
  const app = await buildTestApp(t, { webhookUrl: url })
  const first = await list(app)
  t.equal(first.total, 7)
  t.same(first.webhooks.map((w: any) => w.eventType).sort(), ['cash_in', 'cash_out', 'med_accepted', 'med_created', 'med_rejected', 'refund_in', 'refund_out'])
  t.ok(first.webhooks.every((w: any) => w.url === url && w.isActive && w.version === 1))

  await reg(app, { url: 'http://127.0.0.1:9/extra' })
  const reset = await app.inject({ method: 'POST', url: '/__sandbox/reset', payload: {} })
  t.equal(reset.statusCode, 200)
  const after = await list(app)
  t.equal(after.total, 7, 'the configured URL is back, the extra one is gone')
  t.ok(after.webhooks.every((w: any) => w.url === url))

  await app.inject({ method: 'POST', url: '/__sandbox/reset', payload: { accountId: 1 } })
  await new Promise(resolve => setImmediate(resolve))
  t.equal((await list(app)).total, 7, 'and after resetting the default account alone')
})

t.test('SANDBOX_WEBHOOK_URL with --data: a restart neither duplicates it nor bumps its version', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'pix-sandbox-webhooks-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const config = { data: join(dir, 'state.json'), webhookUrl: 'http://127.0.0.1:9/ci', seed: 's', clock: 'frozen' as const, clockStart: '2026-03-10T15:00:00.000Z' }
  const one = await buildApp({ config })
  t.equal((await list(one)).total, 7)
  await one.close()
  const two = await buildApp({ config })
  t.teardown(() => two.close())
  const again = await list(two)
  t.equal(again.total, 7)
  t.ok(again.webhooks.every((w: any) => w.version === 1))
})

t.test('the test event: a sample payload of each event type, recorded even with no receiver', async t => {
  const app = await buildTestApp(t)
  const shapes: Record<string, (b: any) => boolean> = {
    cash_out: b => b.event === 'CashOut' && b.status === 'CONFIRMED' && b.finalAmount === 10.5,
    cash_in: b => b.type === 'RECEIVE' && b.data.status === 'LIQUIDATED' && b.data.payment.amount === '10.00',
    refund_in: b => b.type === 'REFUND' && b.data.creditDebitType === 'DEBIT' && b.data.refunds[0].status === 'LIQUIDATED',
    refund_out: b => b.type === 'REFUND' && b.data.creditDebitType === 'CREDIT',
    // The MED events' envelope, as a real dispute sends it (not the bare record).
    med_created: b => b.type === 'MED' && b.data.status === 'OPEN' && b.data.analysisResult === null,
    med_accepted: b => b.type === 'MED' && b.data.status === 'ANALYZED' && b.data.analysisResult === 'APPROVED',
    med_rejected: b => b.type === 'MED' && b.data.status === 'ANALYZED' && b.data.analysisResult === 'REJECTED',
  }
  for (const [eventType, ok] of Object.entries(shapes)) {
    const res = await app.inject({ method: 'POST', url: '/__sandbox/webhooks/test', payload: { accountId: 1, eventType, transactionId: `tx-${eventType}` } })
    t.equal(res.statusCode, 202, eventType)
    const [d] = res.json().deliveries
    t.equal(d.status, 'no_receiver')
    t.equal(d.transactionId, `tx-${eventType}`)
    t.ok(ok(d.body), `${eventType} sample has its shape`)
  }
  const missing = await app.inject({ method: 'POST', url: '/__sandbox/webhooks/test', payload: { accountId: 404, eventType: 'cash_in' } })
  t.equal(missing.statusCode, 404)
  t.equal(missing.json().code, 'ACCOUNT_NOT_FOUND')
  const unknown = await app.inject({ method: 'GET', url: '/__sandbox/webhooks/deliveries/not-a-delivery' })
  t.equal(unknown.statusCode, 404)
  t.equal(unknown.json().code, 'DELIVERY_NOT_FOUND')
})

t.test('the registration rules hold for any caller of the service, not only through the schema', async t => {
  const app = await buildTestApp(t)
  const headers = Array.from({ length: 6 }, (_, i) => ({ key: `X-${i}`, value: 'v' }))
  await t.rejects(app.sandbox.webhooks.registrations.register({ accountId: 1, eventType: 'cash_in', url: 'http://r.test/', headers }, { httpsOnly: false }), { code: 'TOO_MANY_WEBHOOK_HEADERS' })
  // The service refuses with a code; the edge answers it 400 in both families that register webhooks.
  t.equal(statusOf('TOO_MANY_WEBHOOK_HEADERS', 'standard'), 400)
  t.equal(statusOf('TOO_MANY_WEBHOOK_HEADERS', 'sandbox'), 400)
  t.equal((await list(app)).total, 0)
})
