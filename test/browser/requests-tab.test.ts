import t from 'tap'
import type { FastifyInstance } from 'fastify'
import type { Browser, Page } from 'playwright-core'
import { buildApp } from '../../server/app.js'
import { T0, bearer, certHeader, fixtureAccount, tokenFor } from '../helpers/app.js'
import { launchChromium, walkThroughSources } from './chromium.js'
import { newPage, screenshotPath, until } from './helpers.js'

/**
 * The dashboard's Requests tab in headless Chromium (docs/testing.md, See what your integration did): the journal with its filters, a
 * request and its answer side by side, credentials masked, the link from a request to its transaction
 * and from a transaction to the requests that made and read it; the page's own refreshes stay out of
 * the journal. The first Chromium of chromium.ts (Debian's when installed, else the packaged one); one
 * that cannot start fails the test with the reason.
 */
const source = walkThroughSources()[0]

let app: FastifyInstance
let base: string
let browser: Browser
let page: Page
const pageErrors: string[] = []

const api = async (method: 'GET' | 'POST', url: string, payload?: unknown, headers: Record<string, string> = {}) => {
  const res = await app.inject({ method, url, payload: payload as Record<string, unknown> | undefined, headers })
  return { status: res.statusCode, body: res.body ? res.json() : null }
}
const rqRow = (text: string | RegExp) => page.locator('#rq-list > li').filter({ hasText: text })

t.before(async () => {
  app = await buildApp({ config: { seed: 'browser-seed', clock: 'frozen', clockStart: T0, settlementDelayMs: 50 } })
  await app.listen({ host: '127.0.0.1', port: 0 })
  base = `http://127.0.0.1:${(app.server.address() as import('node:net').AddressInfo).port}`
  browser = (await launchChromium(source)).browser
  page = await newPage(browser, { width: 1280, height: 900 }, pageErrors)
})

t.teardown(async () => {
  await browser?.close()
  await app?.close()
})

t.test('the Requests tab: filters, both bodies side by side, links both ways, no secret', async (t) => {
  t.setTimeout(60_000)
  const token = await tokenFor(app)
  const details = { key: '52998224725', keyType: 'DOCUMENT', name: 'MARIA DA SILVA', document: '52998224725' }
  const refused = await api('POST', '/api/pix/cash-out', { value: 5, externalId: 'tab-refused', details }, { ...bearer(token), 'x-sandbox-scenario': 'INSUFFICIENT_FUNDS' })
  t.equal(refused.status, 400)
  const created = await api('POST', '/api/pix/cash-out', { value: 7.5, externalId: 'tab-created', details }, bearer(token))
  t.equal(created.status, 201)
  const txId = created.body.transactionId

  await page.goto(`${base}/dashboard?account=1#requests`)
  await page.locator('body[data-view="requests"] #live[data-state="live"]').waitFor()
  t.equal(await page.locator('.tabs a[aria-current="page"]').textContent(), 'Requests')

  // The refused cash-out: its scenario and code in the row; open, the bodies side by side.
  const row = rqRow('tab-refused').or(rqRow(/POST \/api\/pix\/cash-out.*400/)).first()
  await row.locator('.badge', { hasText: '400' }).waitFor()
  await row.locator('.row-summary', { hasText: 'INSUFFICIENT_FUNDS · PIX_INSUFFICIENT_BALANCE' }).click()
  const reqBody = row.locator('[data-testid="request-body"]')
  const resBody = row.locator('[data-testid="response-body"]')
  await reqBody.waitFor()
  t.same(JSON.parse(await reqBody.textContent() ?? ''), { value: 5, externalId: 'tab-refused', details })
  t.same(JSON.parse(await resBody.textContent() ?? ''), refused.body)
  const [left, right] = [await reqBody.boundingBox(), await resBody.boundingBox()]
  t.ok(left && right && right.x > left.x + left.width - 1 && Math.abs(right.y - left.y) < 40, 'the answer is beside the request, not below it')
  await row.locator('details', { hasText: 'Headers' }).first().locator('summary').click()
  t.match(await row.locator('details pre').first().textContent(), /"authorization": "\[masked\]"/)
  await page.screenshot({ path: screenshotPath('requests-tab'), fullPage: true })

  // Filters: a status class and a path prefix.
  await page.fill('#rq-status', '4xx')
  await page.locator('#rq-count', { hasText: /^1 shown$/ }).waitFor()
  await page.fill('#rq-status', '')
  await page.fill('#rq-path', '/api/auth/*')
  // The 4xx filter showed one row too: wait for the list the path filter draws, the token request alone.
  await until('the token request alone in the list', async () => (await page.locator('#rq-count').textContent()) === '1 shown' &&
    (await page.locator('#rq-list > li .cell.kind').allTextContents()).join() === 'POST /api/auth/token')
  const tokenRow = page.locator('#rq-list > li').first()
  await tokenRow.locator('.row-summary').click()
  t.match(await tokenRow.locator('[data-testid="request-body"]').textContent(), /"clientSecret": "\[masked\]"/)
  t.match(await tokenRow.locator('[data-testid="response-body"]').textContent(), /"access_token": "\[masked\]"/)
  t.notOk((await page.content()).includes(token), 'the bearer token is nowhere on the page')
  await page.fill('#rq-path', '')

  // From the request to its transaction...
  const made = page.locator('#rq-list > li').filter({ has: page.locator('.badge', { hasText: '201' }) }).filter({ hasText: 'POST /api/pix/cash-out' })
  await made.locator('.row-summary').click()
  await made.locator('a', { hasText: txId }).click()
  await page.locator('body[data-view="transactions"]').waitFor()
  const txDetail = page.locator(`#tx-list > li[data-key="${txId}"] .row-detail`)
  await txDetail.waitFor()
  // ...and back: the requests that made and read it.
  await api('GET', `/__sandbox/transactions/${txId}`)
  await txDetail.locator('a', { hasText: 'Show the requests that made and read it' }).click()
  await page.locator('body[data-view="requests"]').waitFor()
  t.equal(await page.inputValue('#rq-tx'), txId)
  await page.locator('#rq-count', { hasText: /^2 shown$/ }).waitFor()
  t.same(await page.locator('#rq-list > li .cell.kind').allTextContents(), [`GET /__sandbox/transactions/${txId}`, 'POST /api/pix/cash-out'])

  // The page's own refreshes (accounts, clock, the journal) are not in the journal.
  t.ok(Number(await page.evaluate(() => document.body.dataset.polls)) > 3)
  t.same((await api('GET', '/__sandbox/requests?method=GET&path=/__sandbox/accounts')).body.requests, [])
  t.same((await api('GET', '/__sandbox/requests?path=/__sandbox/clock')).body.requests, [])
  t.same(pageErrors, [])
})

t.test('a token request from another client shows up without a reload', async (t) => {
  await page.fill('#rq-tx', '')
  await page.fill('#rq-path', '/api/auth/token')
  await page.locator('#rq-count', { hasText: /^1 shown$/ }).waitFor()
  const res = await app.inject({ method: 'POST', url: '/api/auth/token', headers: { 'x-ssl-client-cert': certHeader(fixtureAccount.certificate) }, payload: { clientId: fixtureAccount.clientId, clientSecret: fixtureAccount.clientSecret } })
  t.equal(res.statusCode, 201)
  await page.locator('#rq-count', { hasText: /^2 shown$/ }).waitFor()
})
