import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import type { Browser, Page } from 'playwright-core'
import { buildApp } from '../../server/app.js'
import { T0, bearer, tokenFor } from '../helpers/app.js'
import { execFileSync } from 'node:child_process'
import { SYSTEM_CHROMIUM, launchChromium, packagedChromiumPackage, walkThroughSources, type BrowserSource } from './chromium.js'
import { holdNextRequest, newPage, screenshotPath, startReceiver, until, type Receiver } from './helpers.js'
import { EVENT_TYPES } from '../../server/store/state.js'

/**
 * The dashboard in headless Chromium, used as a person would: Settings to register webhooks, the
 * transactions list to pay a charge and fail a pay-out, the delivery log, the clock to expire a
 * charge, MED and scenarios, at laptop and phone width, with the keyboard, and with hostile data.
 * The clock is frozen at T0 so nothing settles behind the test's back; the page advances it.
 *
 * It runs on Debian's Chromium when that is installed, and always on the Chromium packaged in
 * @sparticuz/chromium with Debian's left out, the browser a fresh machine has after `npm install`
 * (chromium.ts). A browser that cannot start fails the walk-through with the reason.
 */

for (const source of walkThroughSources()) {
  t.test(`the walk-through on ${source === 'system' ? 'Debian\'s Chromium' : 'the packaged Chromium'}`, async t => {
    // Some forty steps in one browser: 40 s on a busy two-core machine, over 90 s once with every
    // test process starting at once on a fresh checkout. A hang still ends here, not at tap's limit.
    t.setTimeout(180_000)
    walkThrough(t, source)
  })
}

function walkThrough (t: Test, source: BrowserSource): void {
  let app: FastifyInstance
  let base: string
  let token: string
  let receiver: Receiver
  let browser: Browser
  let page: Page
  const pageErrors: string[] = []
  const foreignRequests: string[] = []

  const api = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT', url: string, payload?: unknown, headers: Record<string, string> = {}) => {
    const res = await app.inject({ method, url, payload: payload as Record<string, unknown> | undefined, headers })
    return { status: res.statusCode, body: res.body ? res.json() : null }
  }
  const tx = async (id: string) => (await api('GET', `/__sandbox/transactions/${id}`)).body
  const account = async () => (await api('GET', '/__sandbox/accounts/1')).body
  const brl = (n: number) => new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(n)
  const open = async (hash: string) => {
    await page.goto(`${base}/dashboard?account=1#${hash}`)
    await page.locator(`body[data-view="${hash}"] #live[data-state="live"]`).waitFor()
  }
  const row = (list: string, text: string | RegExp) => page.locator(`${list} > li`).filter({ hasText: text })
  const txRow = (id: string) => page.locator(`#tx-list > li[data-key="${id}"]`)

  t.before(async () => {
    receiver = await startReceiver()
    app = await buildApp({ config: { seed: 'browser-seed', clock: 'frozen', clockStart: T0, settlementDelayMs: 50 } })
    await app.listen({ host: '127.0.0.1', port: 0 })
    const { port } = app.server.address() as import('node:net').AddressInfo
    base = `http://127.0.0.1:${port}`
    token = await tokenFor(app)
    const launched = await launchChromium(source)
    browser = launched.browser
    t.comment(`${launched.description}, version ${browser.version()}`)
    // Chromium logs every 4xx answer as a console error; newPage leaves those out (validation messages).
    page = await newPage(browser, { width: 1280, height: 900 }, pageErrors)
    page.on('request', (req) => {
      const url = req.url()
      if (!url.startsWith(base) && !url.startsWith('data:')) foreignRequests.push(url)
    })
  })

  t.teardown(async () => {
    await browser?.close()
    await app?.close()
    await receiver?.close()
  })

  t.test('the browser is the one chosen', async (t) => {
    // The pack holds a Chromium of the package's major version; Debian's reports its own version.
    if (source === 'packaged') t.equal(browser.version().split('.')[0], packagedChromiumPackage().version.split('.')[0], `Chromium ${browser.version()} is the packaged build`)
    else t.match(execFileSync(SYSTEM_CHROMIUM, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }), browser.version(), `Chromium ${browser.version()} is ${SYSTEM_CHROMIUM}`)
  })

  t.test('Settings, Webhooks: the API\'s validation messages, register, edit headers, deactivate, delete', async (t) => {
    await open('webhooks')
    t.equal(await page.locator('#h-webhooks').textContent(), 'Settings · Webhooks')

    // A bad URL and a blocked header: the page shows exactly what the API answers.
    const badUrl = await api('POST', '/__sandbox/webhooks', { accountId: 1, eventType: 'cash_out', url: 'ftp://example.com/hook' })
    t.equal(badUrl.status, 400)
    await page.selectOption('#wh-event', 'cash_out')
    await page.fill('#wh-url', 'ftp://example.com/hook')
    await page.click('#wh-form button[type=submit]')
    await page.locator('#wh-error', { hasText: badUrl.body.message }).waitFor()
    t.equal(await page.locator('#wh-error').textContent(), badUrl.body.message)

    const blocked = await api('POST', '/__sandbox/webhooks', { accountId: 1, eventType: 'cash_out', url: `${receiver.url}/out`, headers: [{ key: 'Host', value: 'x' }] })
    t.equal(blocked.status, 400)
    await page.fill('#wh-url', `${receiver.url}/out`)
    await page.click('#wh-add-header')
    await page.locator('#wh-headers .h-key').last().fill('Host')
    await page.locator('#wh-headers .h-value').last().fill('x')
    await page.click('#wh-form button[type=submit]')
    await page.locator('#wh-error', { hasText: blocked.body.message }).waitFor()
    t.equal(await page.locator('#wh-error').textContent(), blocked.body.message)

    // Six headers: the API's limit, in the API's words.
    const six = Array.from({ length: 6 }, (_, i) => ({ key: `X-H${i}`, value: String(i) }))
    const tooMany = await api('POST', '/__sandbox/webhooks', { accountId: 1, eventType: 'cash_out', url: `${receiver.url}/out`, headers: six })
    t.equal(tooMany.status, 400)
    await page.locator('#wh-headers .h-key').last().fill('X-H0')
    await page.locator('#wh-headers .h-value').last().fill('0')
    for (const h of six.slice(1)) {
      await page.click('#wh-add-header')
      await page.locator('#wh-headers .h-key').last().fill(h.key)
      await page.locator('#wh-headers .h-value').last().fill(h.value)
    }
    await page.click('#wh-form button[type=submit]')
    await page.locator('#wh-error', { hasText: tooMany.body.message }).waitFor()
    for (let i = 0; i < 5; i++) await page.locator('#wh-headers .header-row').last().getByRole('button', { name: 'Remove this header' }).click()

    // Fix the header and register cash_out, then cash_in with the keyboard only.
    await page.locator('#wh-headers .h-key').last().fill('X-Integrator')
    await page.locator('#wh-headers .h-value').last().fill('dashboard')
    await page.click('#wh-form button[type=submit]')
    await page.locator('#wh-list .registration', { hasText: `${receiver.url}/out` }).waitFor()
    t.equal(await page.locator('#wh-error').textContent(), '')
    // A poll may draw the registration before the form's own handler has emptied it.
    await until('the header rows removed', async () => await page.locator('#wh-headers .header-row').count() === 0)
    t.equal(await page.locator('#wh-headers .header-row').count(), 0, 'the form is emptied')

    await page.focus('#wh-event')
    await page.keyboard.press('End') // the last option is rec; go to cash_in explicitly
    await page.selectOption('#wh-event', 'cash_in')
    await page.keyboard.press('Tab')
    t.equal(await page.evaluate(() => document.activeElement?.id), 'wh-url', 'tab goes from event type to URL')
    await page.keyboard.type(`${receiver.url}/in`)
    await page.keyboard.press('Enter')
    await page.locator('#wh-list .registration', { hasText: `${receiver.url}/in` }).waitFor()

    let list = (await api('GET', '/__sandbox/webhooks?accountId=1')).body.webhooks
    t.same(list.map((w: any) => [w.eventType, w.url, w.headers, w.isActive]), [
      ['cash_out', `${receiver.url}/out`, { 'X-Integrator': 'dashboard' }, true],
      ['cash_in', `${receiver.url}/in`, {}, true],
    ])

    // Edit the headers of cash_in.
    const cashIn = page.locator('#wh-list .registration', { hasText: `${receiver.url}/in` })
    await cashIn.getByRole('button', { name: 'Edit headers' }).click()
    await cashIn.getByRole('button', { name: 'Add header' }).click()
    await cashIn.locator('.h-key').last().fill('X-Tenant')
    await cashIn.locator('.h-value').last().fill('<b>acme</b>')
    await cashIn.getByRole('button', { name: 'Save headers' }).click()
    await cashIn.locator('code', { hasText: '<b>acme</b>' }).waitFor()
    list = (await api('GET', '/__sandbox/webhooks?accountId=1')).body.webhooks
    t.same(list.find((w: any) => w.eventType === 'cash_in').headers, { 'X-Tenant': '<b>acme</b>' })

    // A third registration, deactivated, reactivated, then deleted (with a confirmation step).
    await page.selectOption('#wh-event', 'refund_in')
    await page.fill('#wh-url', `${receiver.url}/refund`)
    await page.click('#wh-form button[type=submit]')
    const refund = page.locator('#wh-list .registration', { hasText: `${receiver.url}/refund` })
    await refund.getByRole('button', { name: 'Deactivate' }).click()
    await refund.locator('.badge', { hasText: 'inactive' }).waitFor()
    t.equal((await api('GET', '/__sandbox/webhooks?accountId=1')).body.webhooks.find((w: any) => w.eventType === 'refund_in').isActive, false)
    await refund.getByRole('button', { name: 'Activate' }).click()
    await refund.locator('.badge', { hasText: /^active$/ }).waitFor()
    await refund.getByRole('button', { name: 'Delete' }).click()
    await refund.getByRole('button', { name: 'Confirm delete' }).click()
    await refund.waitFor({ state: 'detached' })
    t.notOk((await api('GET', '/__sandbox/webhooks?accountId=1')).body.webhooks.some((w: any) => w.eventType === 'refund_in'))

    // Every event type the control plane takes is offered and listed, Pix Automático's rec among them.
    t.same(await page.locator('#wh-event option').evaluateAll(os => os.map(o => (o as HTMLOptionElement).value)), [...EVENT_TYPES])
    await page.selectOption('#wh-event', 'rec')
    await page.fill('#wh-url', `${receiver.url}/rec`)
    await page.click('#wh-form button[type=submit]')
    await page.locator('#wh-list section[aria-label="Webhooks for rec"] .registration', { hasText: `${receiver.url}/rec` }).waitFor()
    t.ok((await api('GET', '/__sandbox/webhooks?accountId=1')).body.webhooks.some((w: any) => w.eventType === 'rec'))
    await page.screenshot({ path: screenshotPath(source + '-webhooks'), fullPage: true })
  })

  t.test('Transactions: fail a pending cash-out from the page and the ERROR webhook arrives', async (t) => {
    const before = await account()
    const created = await api('POST', '/api/pix/cash-out', {
      value: 12.34,
      externalId: 'dash-out-1',
      description: 'pay-out from the browser test',
      details: { key: '52998224725', keyType: 'DOCUMENT', name: 'MARIA DA SILVA', document: '52998224725' },
    }, bearer(token))
    t.equal(created.status, 201, JSON.stringify(created.body))
    const id = created.body.transactionId
    t.equal((await tx(id)).status, 'PENDING', 'the frozen clock keeps it pending')

    await open('transactions')
    const r = txRow(id)
    await r.locator('.badge', { hasText: 'PENDING' }).waitFor()
    // Blocked balance shows the reservation.
    const reserved = await account()
    t.ok(reserved.balance.blocked > before.balance.blocked)
    await page.locator('[data-testid="balance-blocked"]', { hasText: brl(reserved.balance.blocked) }).waitFor()

    // Expand with the keyboard.
    await r.locator('.row-summary').focus()
    await page.keyboard.press('Enter')
    await r.locator('.row-detail').waitFor()
    t.equal(await r.locator('.row-summary').getAttribute('aria-expanded'), 'true')
    await r.locator('.history').waitFor()
    await r.getByLabel('Error code').selectOption('ORDER_REJECTED')
    await r.getByRole('button', { name: 'Fail' }).click()
    await r.locator('.row-summary .badge', { hasText: 'ERROR' }).waitFor()

    const failed = await tx(id)
    t.equal(failed.status, 'ERROR')
    t.equal(failed.errorCode, 'ORDER_REJECTED')
    const hook = await until('the ERROR webhook at the receiver', () =>
      receiver.received.find(r => r.path === '/out' && r.body?.transactionId === id))
    t.equal(hook.body.status, 'ERROR')
    t.equal(hook.body.errorCode, 'ORDER_REJECTED')
    t.equal(hook.headers['x-integrator'], 'dashboard', 'the custom header registered in Settings is sent')

    // The history and the webhook of the row, and the balance back where it was.
    await r.locator('.history li', { hasText: 'ERROR' }).waitFor()
    await r.locator('.mini li', { hasText: 'cash_out' }).locator('.badge', { hasText: 'delivered' }).waitFor()
    const after = await account()
    t.equal(after.balance.available, before.balance.available)
    await page.locator('[data-testid="balance-available"]', { hasText: brl(after.balance.available) }).waitFor()
    await page.locator('[data-testid="balance-blocked"]', { hasText: brl(after.balance.blocked) }).waitFor()

    // Settle from the page, too.
    const second = await api('POST', '/api/pix/cash-out', {
      value: 1.5, externalId: 'dash-out-2', details: { key: '52998224725', keyType: 'DOCUMENT', name: 'MARIA DA SILVA', document: '52998224725' },
    }, bearer(token))
    const r2 = txRow(second.body.transactionId)
    await r2.locator('.row-summary').click()
    t.same((await tx(second.body.transactionId)).actions, ['settle', 'fail'], 'a pending cash-out takes both')
    await r2.getByRole('button', { name: 'Settle' }).click()
    await until('the settled cash-out', async () => (await tx(second.body.transactionId)).status === 'CONFIRMED')
    await page.screenshot({ path: screenshotPath(source + '-transactions'), fullPage: true })
  })

  t.test('Deliveries: the log with each attempt, request and response, and redeliver', async (t) => {
    await open('deliveries')
    // The row found, by its key: the settled pay-out's webhook may still be on its way, and once
    // delivered it would become the first delivered cash_out row midway through the test.
    const delivered = row('#dl-list', 'cash_out').filter({ has: page.locator('.badge', { hasText: 'delivered' }) }).first()
    const r = page.locator(`#dl-list > li[data-key="${await delivered.getAttribute('data-key')}"]`)
    await r.locator('.row-summary').click()
    await r.locator('.attempt', { hasText: 'HTTP 200' }).first().waitFor()
    t.match(await r.locator('pre.body').textContent(), /"errorCode": "ORDER_REJECTED"|"status"/)
    await r.getByText('Response body').first().click()
    t.match(await r.locator('pre.response').first().textContent(), /"received":true/)
    const deliveryId = (await r.locator('dl.facts dd code').first().textContent())!
    const count = receiver.received.filter(x => x.headers['x-sandbox-delivery-id'] === deliveryId).length
    await r.getByRole('button', { name: 'Redeliver' }).click()
    await until('the redelivery at the receiver', () => receiver.received.filter(x => x.headers['x-sandbox-delivery-id'] === deliveryId).length > count)
    await r.locator('.attempt', { hasText: 'redeliver' }).waitFor()
    await page.screenshot({ path: screenshotPath(source + '-deliveries'), fullPage: true })
  })

  t.test('Deliveries: filtered by any delivery event type of the sandbox\'s dialects', async (t) => {
    await open('deliveries')
    const types = (await page.locator('#dl-event option').allTextContents()).slice(1)
    t.same(types, app.sandbox.deliveries.types, 'every dialect\'s: the gateway\'s events, API Pix\'s callbacks')
    await page.selectOption('#dl-event', 'cash_out')
    await row('#dl-list', 'cash_out').first().waitFor()
    await until('only cash_out deliveries', async () => {
      const kinds = await page.locator('#dl-list > li .cell.kind').allTextContents()
      return kinds.length > 0 && kinds.every(k => k === 'cash_out')
    })
    await page.selectOption('#dl-event', '')
  })

  t.test('Charges: QR image and code, pay it from the page, balance and delivery follow; a hostile payer name is text', async (t) => {
    const created = await api('POST', '/api/pix/cash-in', {
      transaction: { value: 25.5, description: 'charge from the browser test', externalId: 'dash-in-1', expirationTime: 3600 },
      payer: { fullName: 'JOAO PAGADOR', document: '52998224725' },
    }, bearer(token))
    t.equal(created.status, 201, JSON.stringify(created.body))
    const before = await account()
    await open('transactions')
    await page.selectOption('#tx-kind', 'CASH_IN')
    const r = txRow(created.body.transactionId)
    await r.locator('.row-summary').click()
    const img = r.locator('img.qr')
    await img.waitFor()
    await until('the QR image to load', () => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0))
    t.equal(await r.locator('[data-testid="pix-code"]').inputValue(), created.body.pixCode)
    // A pending charge is paid, never settled or failed (the API refuses both): the page offers Pay only.
    t.same((await tx(created.body.transactionId)).actions, [])
    t.equal(await r.getByRole('button', { name: 'Pay' }).count(), 1)
    t.equal(await r.getByRole('button', { name: 'Settle' }).count(), 0, 'no Settle on a pending CASH_IN')
    t.equal(await r.getByRole('button', { name: 'Fail' }).count(), 0, 'no Fail on a pending CASH_IN')

    const hostile = '<img src=x onerror="window.__pwned=1">Eve</b>'
    await r.getByLabel('Payer name').fill(hostile)
    await r.getByLabel('Payer CPF/CNPJ').fill('52998224725')
    await r.getByRole('button', { name: 'Pay' }).click()
    await until('the charge paid', async () => !['PENDING', 'ATIVA'].includes((await tx(created.body.transactionId)).status))

    const after = await until('the credit', async () => { const a = await account(); return a.balance.available > before.balance.available && a })
    t.equal(Math.round((after.balance.available - before.balance.available) * 100), 2550)
    await page.locator('[data-testid="balance-available"]', { hasText: brl(after.balance.available) }).waitFor()
    await page.screenshot({ path: screenshotPath(source + '-charge'), fullPage: true })

    const hook = await until('the cash_in webhook', () => receiver.received.find(x => x.path === '/in'))
    t.equal(hook.headers['x-tenant'], '<b>acme</b>')
    await r.locator('.mini li', { hasText: 'cash_in' }).waitFor()

    // The payer's name shows as typed, nowhere as markup.
    await page.selectOption('#tx-kind', '')
    await page.locator('#tx-list [data-testid="counterpart"]', { hasText: hostile }).first().waitFor()
    t.equal(await page.evaluate(() => (window as any).__pwned), undefined, 'no script ran')
    t.equal(await page.locator('#tx-list img[src="x"]').count(), 0, 'no element was made from the name')
  })

  t.test('Clock: advance from the page expires a charge', async (t) => {
    const min = (await account()).cashInMinExpirationSeconds
    const created = await api('POST', '/api/pix/cash-in', {
      transaction: { value: 9.99, description: 'expires', externalId: 'dash-in-expire', expirationTime: Math.max(30, min) },
      payer: { fullName: 'ANA', document: '52998224725' },
    }, bearer(token))
    t.equal(created.status, 201, JSON.stringify(created.body))
    const clockBefore = (await api('GET', '/__sandbox/clock')).body
    await open('clock')
    t.equal(await page.locator('#clock-now').textContent(), `${new Intl.DateTimeFormat('sv-SE', {
      timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    }).format(Date.parse(clockBefore.now))} -03:00`, 'São Paulo time, with its offset')
    t.equal(await page.locator('#clock-freeze').isDisabled(), true, 'frozen: freeze is off')
    await page.fill('#clock-amount', String(Math.max(30, min) + 60))
    await page.selectOption('#clock-unit', '1000')
    await page.click('#clock-form button[type=submit]')
    await until('the clock to move', async () => Date.parse((await api('GET', '/__sandbox/clock')).body.now) >= Date.parse(clockBefore.now) + (Math.max(30, min) + 60) * 1000)
    const expired = await tx(created.body.transactionId)
    t.notOk(['PENDING', 'ATIVA'].includes(expired.status), `expired: ${expired.status}`)
    await page.screenshot({ path: screenshotPath(source + '-clock'), fullPage: true })

    await open('transactions')
    await txRow(created.body.transactionId).locator('.badge', { hasText: expired.status }).waitFor()

    // Resume and freeze again from the page.
    await open('clock')
    await page.click('#clock-resume')
    await until('running', async () => !(await api('GET', '/__sandbox/clock')).body.frozen)
    await page.click('#clock-freeze')
    await until('frozen', async () => (await api('GET', '/__sandbox/clock')).body.frozen)
  })

  t.test('Scenarios: the catalogue and arming one for the account', async (t) => {
    const catalogue = (await api('GET', '/__sandbox/scenarios')).body.scenarios
    await open('scenarios')
    await page.locator('#sc-catalogue > li').first().waitFor()
    t.equal(await page.locator('#sc-catalogue > li').count(), catalogue.length)
    const first = catalogue[0]
    await page.fill('#sc-search', first.name)
    await page.locator('#sc-catalogue > li', { hasText: first.name }).getByRole('button', { name: `Arm ${first.name}…` }).click()
    t.equal(await page.evaluate(() => document.activeElement?.id), 'sc-name')
    await page.fill('#sc-times', '2')
    await page.click('#sc-form button[type=submit]')
    await page.locator('#sc-armed > li', { hasText: first.name }).waitFor()
    const armed = (await api('GET', '/__sandbox/scenarios/armed?accountId=1')).body.armed
    t.equal(armed.length, 1)
    t.equal(armed[0].remaining, 2)
    await page.screenshot({ path: screenshotPath(source + '-scenarios'), fullPage: true })
    await page.locator('#sc-armed > li').getByRole('button', { name: `Disarm ${first.name}` }).click()
    await page.locator('#sc-armed > li').waitFor({ state: 'detached' })
    t.same((await api('GET', '/__sandbox/scenarios/armed?accountId=1')).body.armed, [])
  })

  t.test('MED: open a dispute against the received PIX and move it through its states', async (t) => {
    await open('med')
    const option = page.locator('#med-pick option').nth(1)
    await option.waitFor({ state: 'attached' })
    await page.selectOption('#med-pick', { index: 1 })
    t.ok((await page.inputValue('#med-e2e')).length === 32)
    await page.fill('#med-desc', 'fraude <script>alert(1)</script>')
    await page.click('#med-form button[type=submit]')
    const r = page.locator('#med-list > li').first()
    await r.locator('.row-summary .badge', { hasText: 'OPEN' }).waitFor()
    await r.locator('.row-detail').waitFor()
    await r.getByText('fraude <script>alert(1)</script>', { exact: true }).waitFor()
    await r.getByRole('button', { name: 'Receive for analysis' }).click()
    await r.locator('.row-summary .badge', { hasText: 'RECEIVED' }).waitFor()
    await r.getByLabel('Analysis details').fill('golpe confirmado')
    await r.getByRole('button', { name: 'Approve' }).click()
    await r.locator('.row-summary .badge', { hasText: 'ANALYZED · APPROVED' }).waitFor()
    const meds = (await api('GET', '/__sandbox/med?accountId=1')).body
    const list = Array.isArray(meds) ? meds : Object.values(meds).find(Array.isArray) as any[]
    t.equal(list[0].status, 'ANALYZED')
    t.equal(list[0].analysisResult, 'APPROVED')
    await page.screenshot({ path: screenshotPath(source + '-med'), fullPage: true })
  })

  t.test('All accounts, phone width, and polling that pauses while the tab is hidden', async (t) => {
    await page.goto(`${base}/dashboard#transactions`)
    await page.locator('#balance table.accounts').waitFor()
    t.equal(await page.locator('#account').inputValue(), '')
    await page.screenshot({ path: screenshotPath(source + '-all-accounts'), fullPage: true })
    await page.locator('#balance a[data-account="1"]').click()
    await page.locator('[data-testid="balance-available"]').waitFor()
    t.match(page.url(), /account=1/)

    await page.setViewportSize({ width: 390, height: 844 })
    for (const view of ['transactions', 'webhooks', 'deliveries', 'clock']) {
      await open(view)
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
      t.ok(overflow <= 1, `${view}: no sideways scrolling at phone width (${overflow}px)`)
    }
    await open('transactions')
    await page.screenshot({ path: screenshotPath(source + '-phone-transactions'), fullPage: true })
    await page.setViewportSize({ width: 1280, height: 900 })

    // After a load, the skip link comes first in the tab order.
    await page.reload()
    await page.keyboard.press('Tab')
    t.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content')

    // The tab hides while a poll is in flight (its clock request held): the badge says paused only
    // once that poll has finished, and from then on nothing polls.
    const poll = holdNextRequest(page, '**/__sandbox/clock')
    await poll.held
    await page.evaluate(() => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true })
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' })
      document.dispatchEvent(new Event('visibilitychange'))
    })
    t.equal(await page.locator('#live').getAttribute('data-state'), 'live', 'not paused while a poll is still running')
    await poll.release()
    await page.locator('#live[data-state="paused"]').waitFor()
    const polls = await page.evaluate(() => Number(document.body.dataset.polls))
    await new Promise(resolve => setTimeout(resolve, 2200))
    t.equal(await page.evaluate(() => Number(document.body.dataset.polls)), polls, 'no poll while hidden')
    await page.evaluate(() => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => false })
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' })
      document.dispatchEvent(new Event('visibilitychange'))
    })
    await page.locator('#live[data-state="live"]').waitFor()
    await until('a poll after the tab is visible', async () => Number(await page.evaluate(() => document.body.dataset.polls)) > polls)
  })

  t.test('Report: the checks of an account, the evidence of a failure, and the probe sent from the page', async (t) => {
    const created = (await api('POST', '/__sandbox/accounts', { balance: 100 })).body
    const own = await tokenFor(app, created)
    t.equal((await api('POST', '/__sandbox/webhooks', { accountId: created.accountId, eventType: 'cash_out', url: receiver.url })).status, 201)
    // Refused, then sent again unchanged: what refusal-not-retried fails.
    const body = { value: 10, externalId: 'report-1', details: { key: 'joao.souza@example.com', keyType: 'EMAIL', name: 'JOAO', document: '03742693433' } }
    const refused = []
    for (let i = 0; i < 2; i++) refused.push((await app.inject({ method: 'POST', url: '/api/pix/cash-out', headers: { ...bearer(own), 'x-sandbox-scenario': 'INSUFFICIENT_FUNDS' }, payload: body })).headers['x-request-id'])
    await page.goto(`${base}/dashboard?account=${created.accountId}#report`)
    await page.locator('body[data-view="report"] #live[data-state="live"]').waitFor()
    t.equal(await page.locator('#h-report').textContent(), 'Integration report')
    t.match(await page.locator('#rp-verdict').textContent(), /^Failed: \d+ passed, 1 failed, \d+ not exercised, \d+ not applicable$/)
    const check = (id: string) => page.locator(`#rp-list article[data-check="${id}"]`)
    t.equal(await check('refusal-not-retried').getAttribute('data-state'), 'failed')
    const evidence = await check('refusal-not-retried').locator('.evidence').textContent()
    for (const id of refused) t.match(evidence, String(id), 'the request ids of the evidence')
    t.match(await check('refusal-not-retried').textContent(), /gateway 7\.2, 7\.3, 7\.6 \(docs\/gateway\.md#72-cash-out\)/)
    t.equal(await check('charge-external-id-unique').locator('.badge').textContent(), 'not exercised')
    t.equal(await check('scope-refusal-not-retried').locator('.badge').textContent(), 'not applicable', 'a check of API Pix alone, never used')
    // The receiver answers 200 to anything: the badly signed webhook is accepted, and the page says so.
    const before = receiver.received.length
    await page.getByRole('button', { name: 'Send a badly signed webhook' }).click()
    await page.locator('#toast', { hasText: 'Badly signed cash_out webhook sent to 1 receiver(s)' }).waitFor()
    await until('the probe to arrive', () => receiver.received.length > before)
    await page.locator('#rp-list article[data-check="webhook-signature-verified"][data-state="failed"]').waitFor()
    t.match(await check('webhook-signature-verified').locator('.evidence').textContent(), /accepted with 200/)
    t.match(await page.locator('#rp-verdict').textContent(), /^Failed: \d+ passed, 2 failed/)
    await page.screenshot({ path: screenshotPath(source + '-report'), fullPage: true })
  })

  t.test('a sandbox with an admin token: the page asks for it, then works', async (t) => {
    const guarded = await buildApp({ config: { seed: 'browser-seed', clock: 'frozen', clockStart: T0, adminToken: 'browser-admin-token' } })
    t.teardown(() => guarded.close())
    await guarded.listen({ host: '127.0.0.1', port: 0 })
    const { port } = guarded.server.address() as import('node:net').AddressInfo
    const other = await page.context().newPage()
    t.teardown(() => other.close())
    await other.goto(`http://127.0.0.1:${port}/dashboard#clock`)
    await other.locator('#admin-form').waitFor()
    t.equal(await other.locator('#live').getAttribute('data-state'), 'down')
    // The token is given while a poll sent without it is in flight (its clock request held): the
    // refusal that poll gets is of no token, not of the one now in use, and asks for nothing. (The
    // held request goes on before the wait for live: that poll may still be running, and the one
    // with the token comes after it.)
    const poll = holdNextRequest(other, '**/__sandbox/clock')
    const held = await poll.held
    await other.getByLabel('Admin token').fill('browser-admin-token')
    await other.getByRole('button', { name: 'Use token' }).click()
    await poll.release()
    await (await held.response())?.finished()
    await other.locator('#live[data-state="live"]').waitFor()
    const polls = Number(await other.evaluate(() => document.body.dataset.polls))
    await until('a poll after the held refusal', async () => Number(await other.evaluate(() => document.body.dataset.polls)) > polls)
    t.equal((await held.response())?.status(), 401, 'the held poll was refused')
    t.equal(await other.locator('#admin-form').isHidden(), true)
    await other.locator('#clock-now', { hasText: '2026-03-10 12:00:00 -03:00' }).waitFor()
  })

  t.test('the page reached nothing beyond the sandbox and threw nothing', async (t) => {
    t.same(foreignRequests, [])
    t.same(pageErrors, [])
  })
}
