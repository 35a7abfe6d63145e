import t from 'tap'
import { T0 } from '../helpers/app.js'
import { dashboardSession, screenshotPath, startReceiver, type DashboardSession, type Receiver } from './helpers.js'

/**
 * The dashboard's Mercado Pago tab in headless Chromium (docs/mercado-pago.md): the selected account's
 * payments with id, status/status_detail, amount, refunded amount, date of expiration and
 * external_reference; an open one's refunds and notifications (its deliveries); a pending one paid from
 * the page through POST /__sandbox/pix/pay, the rows following without a reload. Another account's
 * payments are not shown. The first Chromium of chromium.ts; one that cannot start fails the test.
 */
let session: DashboardSession
let receiver: Receiver

t.before(async () => {
  session = await dashboardSession({ seed: 'browser-seed', clock: 'frozen', clockStart: T0 })
  receiver = await startReceiver()
})
t.teardown(async () => { await session?.close(); await receiver?.close() })

t.test('the Mercado Pago tab: payments with status, amounts, expiry and reference; refunds, notifications, and paying a pending one', async (t) => {
  t.setTimeout(60_000)
  const { app, base, page, pageErrors } = session
  const account = async () => (await app.inject({ method: 'POST', url: '/__sandbox/accounts', payload: {} })).json()
  const mine = await account()
  const other = await account()
  let keys = 0
  const mp = async (acc: any, method: 'POST' | 'GET', url: string, payload?: unknown) => {
    const res = await app.inject({ method, url, headers: { authorization: `Bearer ${acc.mercadoPago.accessToken}`, ...(method === 'POST' ? { 'x-idempotency-key': `tab-${++keys}` } : {}) }, ...(payload !== undefined ? { payload: payload as object } : {}) })
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`)
    return res.json()
  }
  const payer = { email: 'comprador@example.com' }
  const paid = await mp(mine, 'POST', '/v1/payments', { transaction_amount: 80, payment_method_id: 'pix', external_reference: 'order-paid', payer, notification_url: `${receiver.url}/mp` })
  const pending = await mp(mine, 'POST', '/v1/payments', { transaction_amount: 12.34, payment_method_id: 'pix', external_reference: 'order-pending', payer, notification_url: `${receiver.url}/mp` })
  const elsewhere = await mp(other, 'POST', '/v1/payments', { transaction_amount: 5, payment_method_id: 'pix', external_reference: 'order-of-another', payer })
  const pay = await app.inject({ method: 'POST', url: '/__sandbox/pix/pay', payload: { pixCode: paid.point_of_interaction.transaction_data.qr_code } })
  t.equal(pay.statusCode, 201, pay.body)
  const refund = await mp(mine, 'POST', `/v1/payments/${paid.id}/refunds`, { amount: 30 })

  const row = (id: number) => page.locator(`#mp-list > li[data-key="${id}"]`)
  await page.goto(`${base}/dashboard?account=${mine.accountId}#mercadopago`)
  await page.locator('body[data-view="mercadopago"] #live[data-state="live"]').waitFor()
  t.equal(await page.locator('.tabs a[aria-current="page"]').textContent(), 'Mercado Pago')
  await row(pending.id).waitFor()
  t.same(await page.locator('#mp-list > li').evaluateAll(lis => lis.map(li => (li as HTMLElement).dataset.key)), [String(pending.id), String(paid.id)], 'the last made first, only this account\'s')
  t.notOk(await row(elsewhere.id).count(), 'another account\'s payment is not listed')

  t.equal(await row(paid.id).locator('[data-testid="status"]').textContent(), 'approved/partially_refunded')
  t.match(await row(paid.id).locator('.cell.amount').textContent(), /80,00/)
  t.match(await row(paid.id).locator('[data-testid="refunded"]').textContent(), /refunded R\$\s30,00/)
  t.equal(await row(paid.id).locator('[data-testid="external-reference"]').textContent(), 'order-paid')
  t.equal(await row(pending.id).locator('[data-testid="status"]').textContent(), 'pending/pending_waiting_transfer')
  // T0 is 12:00 in São Paulo: 24 h later by default.
  t.equal(await row(pending.id).locator('[data-testid="expires"]').textContent(), 'expires 2026-03-11 12:00:00 -03:00')
  t.equal(await row(paid.id).locator('[data-testid="expires"]').textContent(), '', 'a paid one no longer expires')

  // The paid one's detail: its expiry, its refund, and its notifications as delivered to its notification_url.
  await row(paid.id).locator('.row-summary').click()
  const detail = row(paid.id).locator('.row-detail')
  await detail.waitFor()
  t.equal(await detail.locator('[data-testid="date-of-expiration"]').textContent(), paid.date_of_expiration)
  t.match(await detail.locator(`[data-refund="${refund.id}"]`).textContent(), /approved.*30,00/)
  const notifications = detail.getByRole('list', { name: `Notifications of payment ${paid.id}` })
  await notifications.waitFor()
  const listed = (await app.inject({ method: 'GET', url: `/__sandbox/mercado-pago/payments?accountId=${mine.accountId}` })).json().payments
  const deliveries = (await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries?transactionId=${listed.find((p: any) => p.id === paid.id).transactionId}` })).json().deliveries
  t.ok(deliveries.length >= 3, 'its creation, approval and refund notified')
  t.same(await notifications.locator('li').evaluateAll(lis => lis.map(li => (li as HTMLElement).dataset.delivery)), deliveries.map((d: any) => d.id), 'each of its deliveries')
  t.match(await notifications.textContent(), 'mercado_pago_payment')
  t.match(await notifications.textContent(), `${receiver.url}/mp`)
  t.notOk(await detail.locator('form.pay').count(), 'an approved payment is not payable')
  await page.screenshot({ path: screenshotPath('mercado-pago-tab'), fullPage: true })

  // The pending one paid from the page: approved, as GET /v1/payments/{id} says, and the row follows.
  await row(pending.id).locator('.row-summary').click()
  const form = row(pending.id).locator('form.pay')
  await form.waitFor()
  t.equal(await row(pending.id).locator('[data-testid="pix-code"]').inputValue(), pending.point_of_interaction.transaction_data.qr_code)
  await form.locator('button[type=submit]').click()
  await row(pending.id).locator('[data-testid="status"]', { hasText: 'approved/accredited' }).waitFor()
  t.equal((await mp(mine, 'GET', `/v1/payments/${pending.id}`)).status, 'approved')

  // No account chosen: the tab asks for one.
  await page.goto(`${base}/dashboard#mercadopago`)
  await page.locator('body[data-view="mercadopago"] #live[data-state="live"]').waitFor()
  t.ok(await page.locator('#mp-no-account').isVisible())
  t.equal(await page.locator('#mp-list > li').count(), 0)
  t.same(pageErrors, [])
})
