import t from 'tap'
import type { FastifyInstance } from 'fastify'
import type { Browser, Page } from 'playwright-core'
import { buildApp } from '../../server/app.js'
import { bearer, tokenFor } from '../helpers/app.js'
import { BLOCKED_KEY, cashOutBody, UNLISTED_EMAIL, OTHER_VALID_CPF } from '../helpers/payouts.js'
import { launchChromium, walkThroughSources } from './chromium.js'
import { newPage, screenshotPath } from './helpers.js'

/**
 * What the dashboard's transaction rows say, in headless Chromium: times in São Paulo with their offset
 * (the date there, not UTC's), a failed pay-out shown as no debit, a holder the sandbox invented marked
 * as such, and rows whose cells and toggle fit on one line at laptop widths, for one account and for
 * all. The first Chromium of chromium.ts; one that cannot start fails the test with the reason.
 */
const source = walkThroughSources()[0]
// 01:26:47 UTC is 22:26:47 of the day before in São Paulo.
const START = '2026-11-26T01:26:47.000Z'
const SHOWN = '2026-11-25 22:26:47 -03:00'

let app: FastifyInstance
let base: string
let browser: Browser
let page: Page
const pageErrors: string[] = []
const ids: Record<string, string> = {}

const inject = async (method: 'GET' | 'POST', url: string, payload?: unknown, headers: Record<string, string> = {}) => {
  const res = await app.inject({ method, url, payload: payload as Record<string, unknown> | undefined, headers })
  return { status: res.statusCode, body: res.body ? res.json() : null }
}
const txRow = (id: string) => page.locator(`#tx-list > li[data-key="${id}"]`)

t.before(async () => {
  app = await buildApp({ config: { seed: 'browser-seed', clock: 'frozen', clockStart: START, settlementDelayMs: 50 } })
  await app.listen({ host: '127.0.0.1', port: 0 })
  base = `http://127.0.0.1:${(app.server.address() as import('node:net').AddressInfo).port}`
  const token = await tokenFor(app)
  const pay = async (name: string, body: Record<string, unknown>) => {
    const res = await inject('POST', '/api/pix/cash-out', body, bearer(token))
    if (res.status !== 201) throw new Error(`${name}: ${res.status} ${JSON.stringify(res.body)}`)
    ids[name] = res.body.transactionId
  }
  // To "Maria" at a key the directory does not list: the sandbox invents the holder.
  await pay('maria', cashOutBody({ value: 12.5, externalId: 'to-maria' }, { key: UNLISTED_EMAIL, name: 'Maria', document: OTHER_VALID_CPF }))
  // To a blocked account: the settlement fails, the reservation comes back, nothing is debited.
  await pay('blocked', cashOutBody({ value: 30, externalId: 'to-blocked' }, { key: BLOCKED_KEY }))
  await pay('joao', cashOutBody({ value: 7, externalId: 'to-joao' }))
  // Another account's transaction, for the all-accounts view.
  const other = await inject('POST', '/__sandbox/accounts', { balance: 100 })
  await inject('POST', '/__sandbox/pix/incoming', { accountId: other.body.accountId, amount: 5 })
  await inject('POST', '/__sandbox/clock/advance', { ms: 50 })
  browser = (await launchChromium(source)).browser
  page = await newPage(browser, { width: 1400, height: 900 }, pageErrors)
})

t.teardown(async () => {
  await browser?.close()
  await app?.close()
})

const open = async (query: string) => {
  await page.goto(`${base}/dashboard${query}#transactions`)
  await page.locator('body[data-view="transactions"] #live[data-state="live"]').waitFor()
  await txRow(ids.joao).waitFor()
}

/** Each row of the list: how many grid rows its summary takes, and the cells whose text does not fit. */
const layout = () => page.locator('#tx-list').evaluate(list => [...list.querySelectorAll(':scope > li > .row-summary')].map(summary => ({
  key: summary.parentElement!.dataset.key,
  lines: getComputedStyle(summary).gridTemplateRows.split(' ').length,
  cut: [...summary.querySelectorAll<HTMLElement>('.cell.when, .cell.amount, .cell.fee, .cell.acct')].filter(c => c.scrollWidth > c.clientWidth).map(c => c.textContent),
})))

t.test('times are São Paulo\'s, with the offset, wherever the page shows one', async t => {
  await open('?account=1')
  t.equal(await txRow(ids.joao).locator('.cell.when').textContent(), SHOWN, 'the date is São Paulo\'s, and says so')
  t.match(await page.locator('#clock-badge').textContent(), `${SHOWN.slice(0, -7)}`, 'the clock badge too')
  t.match(await page.locator('#clock-badge').textContent(), /-03:00 · frozen$/)
  await txRow(ids.joao).locator('.row-summary').click()
  t.equal(await txRow(ids.joao).locator('dd time').first().textContent(), SHOWN)
  t.equal(await txRow(ids.joao).locator('dd time').first().getAttribute('title'), null, 'no second clock in a tooltip')
})

t.test('a failed pay-out shows no debit and no fee; a settled one its debit and fee', async t => {
  await open('?account=1')
  const failed = txRow(ids.blocked)
  await failed.locator('.badge', { hasText: 'ERROR' }).waitFor()
  const amount = failed.locator('.cell.amount')
  t.equal(await amount.textContent(), 'R$\u00a030,00', 'no minus sign')
  t.equal(await amount.evaluate(e => getComputedStyle(e).fontWeight), '400', 'not bold')
  t.equal(await failed.locator('.cell.fee').textContent(), 'not debited')
  await failed.locator('.row-summary').click()
  t.match(await failed.locator('dl.facts').textContent(), /not charged: nothing moved/)
  const settled = txRow(ids.joao)
  t.match(await settled.locator('.cell.amount').textContent(), /^−R\$/)
  t.match(await settled.locator('.cell.fee').textContent(), /^fee R\$/)
})

t.test('a holder the sandbox invented is marked as generated; a directory holder is not', async t => {
  await open('?account=1')
  const maria = txRow(ids.maria)
  t.match(await maria.locator('[data-testid="counterpart"]').textContent(), /^generated [A-Z]+ [A-Z]+$/)
  t.equal(await maria.locator('[data-testid="counterpart"] .tag').isVisible(), true, 'the mark shows, whatever the width')
  await maria.locator('.row-summary').click()
  t.match(await maria.locator('dl.facts').textContent(), /generated by the sandbox: the key is not in its directory/)
  t.equal(await txRow(ids.joao).locator('[data-testid="counterpart"]').textContent(), 'JOAO SOUZA')
})

t.test('one account\'s view shows its Mercado Pago credentials', async t => {
  await open('?account=1')
  const block = page.locator('[data-testid="mercado-pago-credentials"]')
  await block.locator('summary').click()
  const credentials = app.sandbox.store.account(1)!.mercadoPago!
  t.equal(await block.locator('[data-credential="accessToken"]').textContent(), credentials.accessToken)
  t.equal(await block.locator('[data-credential="webhookSecret"]').textContent(), credentials.webhookSecret)
  t.equal(await block.locator('[data-credential="userId"]').textContent(), String(credentials.userId))
})

t.test('one account\'s view says whether its API Pix webhooks\' mutual TLS is checked (PATCH /__sandbox/accounts/{id})', async t => {
  await open('?account=1')
  const line = page.locator('[data-testid="webhook-mtls-check"]')
  t.equal(await line.textContent(), 'API Pix webhooks: mTLS checked')
  t.equal((await app.inject({ method: 'PATCH', url: '/__sandbox/accounts/1', payload: { webhookMtlsCheck: false } })).statusCode, 200)
  await open('?account=1')
  t.equal(await line.textContent(), 'API Pix webhooks: mTLS check off')
  await app.inject({ method: 'PATCH', url: '/__sandbox/accounts/1', payload: { webhookMtlsCheck: true } })
})

for (const [width, height] of [[1400, 900], [1280, 800], [1024, 768]]) {
  t.test(`at ${width} px every row fits on one line, toggle included, for one account and for all`, async t => {
    await page.setViewportSize({ width, height })
    for (const query of ['?account=1', '']) {
      await open(query)
      if (query === '') await page.locator('#tx-list .cell.acct').first().waitFor()
      const rows = await layout()
      t.ok(rows.length >= 3, `${rows.length} rows`)
      for (const row of rows) {
        t.equal(row.lines, 1, `${query || 'all accounts'}: row ${row.key} on one line`)
        t.same(row.cut, [], `${query || 'all accounts'}: row ${row.key} cuts none of its figures`)
      }
      await page.screenshot({ path: screenshotPath(`transactions-${width}${query ? '-account' : '-all'}`) })
    }
    await page.setViewportSize({ width: 1400, height: 900 })
  })
}

t.test('the page threw nothing', async t => {
  t.same(pageErrors, [])
})
