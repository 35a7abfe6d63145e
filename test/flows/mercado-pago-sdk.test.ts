import t from 'tap'
import { MercadoPagoConfig, Payment, PaymentRefund, WebhookSignatureValidator, InvalidWebhookSignatureError } from 'mercadopago'
import { AppConfig } from 'mercadopago/dist/utils/config/index.js'
import { startSandbox } from '../../server/index.js'
import { startReceiver, type ReceivedRequest } from '../helpers/receiver.js'

/**
 * Mercado Pago's own Node SDK (the npm `mercadopago`, 3.x), unchanged but for its base URL
 * (`AppConfig.BASE_URL`, a process-wide static the package exports), against a listening sandbox:
 * every call of docs/mercado-pago.md, and its notifications checked by the SDK's own signature validator.
 */

const T0 = '2026-03-10T15:00:00.000Z'

t.test('the SDK creates, reads, searches, cancels and refunds; its notifications pass its own validator', async t => {
  const sandbox = await startSandbox({ port: 0, clock: 'frozen', clockStart: T0 })
  t.teardown(() => sandbox.close())
  const receiver = await startReceiver()
  t.teardown(() => receiver.close())
  const original = AppConfig.BASE_URL
  ;(AppConfig as { BASE_URL: string }).BASE_URL = sandbox.url
  t.teardown(() => { (AppConfig as { BASE_URL: string }).BASE_URL = original })

  const account = await sandbox.client.sandbox.createAccount({ balance: 0 }) as unknown as { accountId: number, mercadoPago: { accessToken: string, webhookSecret: string } }
  // The SDK merges a call's requestOptions into its config for every later call (its idempotency key
  // included): the intents of this test each get a config of their own.
  const configured = () => new MercadoPagoConfig({ accessToken: account.mercadoPago.accessToken, options: { maxRetries: 0 } })
  const payment = new Payment(configured())
  const reads = new Payment(configured())
  const refunds = (): PaymentRefund => new PaymentRefund(configured())

  const body = { transaction_amount: 25.5, payment_method_id: 'pix', description: 'Pedido 7', external_reference: 'order-7', notification_url: `${receiver.url}/mp/webhook?source_news=webhooks`, payer: { email: 'comprador@example.com' } }
  const created = await payment.create({ body, requestOptions: { idempotencyKey: 'intent-7' } })
  t.match(created, { status: 'pending', status_detail: 'pending_waiting_transfer', transaction_amount: 25.5, external_reference: 'order-7' })
  t.equal(created.api_response.status, 201)
  // The same key again (a retry): the same payment.
  const again = await payment.create({ body, requestOptions: { idempotencyKey: 'intent-7' } })
  t.equal(again.id, created.id)
  // The same key for another intent: the SDK's idempotency error.
  await t.rejects(payment.create({ body: { ...body, transaction_amount: 1 }, requestOptions: { idempotencyKey: 'intent-7' } }), { name: 'MPIdempotencyError', message: 'Idempotency key already used with a different request' })

  const verify = (request: ReceivedRequest, secret = account.mercadoPago.webhookSecret): void => {
    const url = new URL(request.path, receiver.url)
    WebhookSignatureValidator.validate({ xSignature: request.headers['x-signature'], xRequestId: request.headers['x-request-id'], dataId: url.searchParams.get('data.id'), secret, toleranceSeconds: 300, now: () => Date.parse(T0) })
  }
  const createdNote = await receiver.nth(1)
  t.equal(new URL(createdNote.path, receiver.url).search, `?source_news=webhooks&data.id=${created.id}&type=payment`, 'the URL\'s own query kept, data.id and type added')
  t.match(createdNote.json(), { action: 'payment.created', api_version: 'v1', data: { id: String(created.id) }, type: 'payment', live_mode: false, date_created: '2026-03-10T15:00:00Z' })
  t.doesNotThrow(() => verify(createdNote), 'x-signature verifies with the account\'s secret')
  t.throws(() => verify(createdNote, 'another-secret'), InvalidWebhookSignatureError)

  const got = await reads.get({ id: created.id! })
  t.equal(got.id, created.id)
  const code = got.point_of_interaction!.transaction_data!.qr_code!
  const paid = await fetch(`${sandbox.url}/__sandbox/pix/pay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pixCode: code }) })
  t.equal(paid.status, 201)
  const updated = await receiver.nth(2)
  t.match(updated.json(), { action: 'payment.updated', data: { id: String(created.id) } })
  t.doesNotThrow(() => verify(updated))
  t.match(await reads.get({ id: created.id! }), { status: 'approved', status_detail: 'accredited' })

  const found = await reads.search({ options: { external_reference: 'order-7', sort: 'date_created', criteria: 'desc', range: 'date_created', begin_date: 'NOW-1DAYS', end_date: 'NOW' } })
  t.equal(found.paging?.total, 1)
  t.equal(found.results?.[0].id, created.id)
  t.equal((await reads.search()).paging?.total, 1, 'search without options')

  const other = await new Payment(configured()).create({ body: { ...body, external_reference: 'order-8' } })
  const cancelled = await new Payment(configured()).cancel({ id: other.id! })
  t.match(cancelled, { status: 'cancelled', status_detail: 'by_collector' })
  t.match(await reads.get({ id: other.id! }), { status: 'cancelled' }, 'read back, as after each notification')

  const partial = await refunds().create({ payment_id: created.id!, body: { amount: 5.5 } })
  t.match(partial, { amount: 5.5, status: 'approved', payment_id: created.id })
  const rest = await refunds().create({ payment_id: created.id! })
  t.match(rest, { amount: 20, status: 'approved' })
  const list = await refunds().list({ payment_id: created.id! })
  t.same(list.map(r => r.amount), [5.5, 20])
  t.match(await refunds().get({ payment_id: created.id!, refund_id: partial.id! }), { id: partial.id, amount: 5.5 })
  t.match(await reads.get({ id: created.id! }), { status: 'refunded', status_detail: 'refunded', transaction_amount_refunded: 25.5 })
  await t.rejects(refunds().total({ payment_id: created.id! }), { message: 'The action requested is not valid for the current payment state' }, 'nothing left to refund')
  await t.rejects(reads.get({ id: '999' }), { message: 'Payment not found' })
  const balance = await sandbox.client.sandbox.account(account.accountId)
  t.match(balance, { balance: { available: 0, blocked: 0 }, invariantHolds: true })

  // The integration report grades what this test did: the payment read back after each notification
  // (passed), a key reused for another intent (the 409 above: failed), and, once the probe is sent to a
  // receiver that answers 200 to anything, a badly signed notification accepted (failed).
  const graded = (report: { checks: Array<{ id: string, status: string }> }, id: string) => report.checks.find(c => c.id === id)?.status
  const before = await sandbox.client.sandbox.report(account.accountId)
  t.equal(graded(before, 'mercado-pago-payment-read-back'), 'passed')
  t.equal(graded(before, 'mercado-pago-idempotency-per-intent'), 'failed')
  t.equal(graded(before, 'mercado-pago-signature-checked'), 'not_exercised')
  await sandbox.client.sandbox.setMercadoPagoWebhook(account.accountId, `${receiver.url}/mp/account`)
  const seen = receiver.requests.length
  await sandbox.client.sandbox.reportProbe({ accountId: account.accountId })
  const probe = await receiver.nth(seen + 1)
  t.throws(() => verify(probe), InvalidWebhookSignatureError, 'the probe\'s signature does not verify')
  for (let i = 0; i < 50 && graded(await sandbox.client.sandbox.report(account.accountId), 'mercado-pago-signature-checked') === 'not_exercised'; i++) await new Promise(resolve => setTimeout(resolve, 20))
  t.equal(graded(await sandbox.client.sandbox.report(account.accountId), 'mercado-pago-signature-checked'), 'failed', 'a receiver that accepts it is flagged')
})

t.test('the SDK\'s refund held in process (REFUND_DELAY armed): a 400 without X-Render-In-Process-Refunds, in_process with it', async t => {
  const sandbox = await startSandbox({ port: 0, clock: 'frozen', clockStart: T0 })
  t.teardown(() => sandbox.close())
  const original = AppConfig.BASE_URL
  ;(AppConfig as { BASE_URL: string }).BASE_URL = sandbox.url
  t.teardown(() => { (AppConfig as { BASE_URL: string }).BASE_URL = original })
  const account = await sandbox.client.sandbox.createAccount({ balance: 0 }) as unknown as { accountId: number, mercadoPago: { accessToken: string } }
  const token = account.mercadoPago.accessToken
  const configured = () => new MercadoPagoConfig({ accessToken: token, options: { maxRetries: 0 } })
  const created = await new Payment(configured()).create({ body: { transaction_amount: 10, payment_method_id: 'pix', payer: { email: 'comprador@example.com' } } })
  const paid = await fetch(`${sandbox.url}/__sandbox/pix/pay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pixCode: created.point_of_interaction!.transaction_data!.qr_code }) })
  t.equal(paid.status, 201)
  await sandbox.client.sandbox.armScenario({ accountId: account.accountId, scenario: 'REFUND_DELAY;ms=5000', endpoint: 'refund-in', times: 2 })

  await t.rejects(new PaymentRefund(configured()).create({ payment_id: created.id!, body: { amount: 4 } }), { message: 'The refund is in process' })
  // The SDK has no option of its own for the header: its request options' `headers` replace its own, the token included.
  const render = { headers: { Authorization: `Bearer ${token}`, 'X-Render-In-Process-Refunds': 'true' } } as Record<string, unknown>
  const shown = await new PaymentRefund(configured()).create({ payment_id: created.id!, body: { amount: 3 }, requestOptions: render })
  t.match(shown, { status: 'in_process', amount: 3, labels: ['hidden', 'contingency'] })
  t.same((await new PaymentRefund(configured()).list({ payment_id: created.id! })).map(r => r.status), [], 'both hidden from a list without the header')
  t.same((await new PaymentRefund(configured()).list({ payment_id: created.id!, requestOptions: render })).map(r => r.amount), [4, 3])
  t.match(await sandbox.client.sandbox.account(account.accountId), { balance: { available: 3, blocked: 7 }, invariantHolds: true })
})
