import t from 'tap'
import { T0, bearer } from '../helpers/app.js'
import { oauthToken } from '../helpers/api-pix.js'
import { dashboardSession, screenshotPath, type DashboardSession } from './helpers.js'

/**
 * The dashboard's API Pix tab in headless Chromium (docs/api-pix.md): the cobs with their txid, status
 * and the payload location they are paid at, the payload locations with the txid each serves, both
 * following what an integration does (a payment, an unbinding) without a reload. The first Chromium of
 * chromium.ts (Debian's when installed, else the packaged one); one that cannot start fails the test.
 */
let session: DashboardSession

const txidOf = (n: number) => `dashboard${n}`.padEnd(26, '0')
const cobRow = (txid: string) => session.page.locator('#ap-cob-list > li').filter({ hasText: txid })
const locRow = (id: number) => session.page.locator(`#ap-loc-list > li[data-key="${id}"]`)

t.before(async () => { session = await dashboardSession({ seed: 'browser-seed', clock: 'frozen', clockStart: T0 }) })
t.teardown(async () => { await session?.close() })

t.test('the API Pix tab: cobs with txid, status and location; locations with the txid they serve; kept up to date', async (t) => {
  t.setTimeout(60_000)
  const { app, base, page, pageErrors } = session
  const token = await oauthToken(app)
  const call = async (method: 'PUT' | 'POST' | 'DELETE', url: string, payload?: Record<string, unknown>) => {
    const res = await app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) })
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`)
    return res.json()
  }
  const cob = await call('PUT', `/v2/cob/${txidOf(1)}`, { calendario: { expiracao: 3600 }, valor: { original: '12.34' }, chave: 'loja@example.com' })
  const alone = await call('POST', '/v2/loc', { tipoCob: 'cob' })

  await page.goto(`${base}/dashboard?account=1#apipix`)
  await page.locator('body[data-view="apipix"] #live[data-state="live"]').waitFor()
  t.equal(await page.locator('.tabs a[aria-current="page"]').textContent(), 'API Pix')
  t.same(await page.locator('#ap-blocks h3').allTextContents(), ['Charges (cob)', 'Payload locations (loc)'])

  const row = cobRow(txidOf(1))
  await row.waitFor()
  t.equal(await row.locator('.badge').textContent(), 'ATIVA')
  t.equal(await row.locator('[data-testid="location"]').textContent(), cob.location)
  t.match(await row.locator('.cell.amount').textContent(), /12,34/)
  await row.locator('.row-summary').click()
  const detail = row.locator('.row-detail')
  await detail.waitFor()
  t.match(await detail.textContent(), 'loja@example.com')
  t.match(await detail.textContent(), cob.pixCopiaECola, 'its copy-and-paste code')

  t.equal(await locRow(cob.loc.id).locator('.badge').textContent(), 'bound')
  t.match(await locRow(cob.loc.id).textContent(), `loc #${cob.loc.id} · cob`)
  t.equal(await locRow(alone.id).locator('.badge').textContent(), 'free')
  t.equal(await locRow(alone.id).locator('[data-testid="location"]').textContent(), alone.location)
  await locRow(cob.loc.id).locator('.row-summary').click()
  t.match(await locRow(cob.loc.id).locator('.row-detail').textContent(), txidOf(1), 'the txid it serves')
  await page.screenshot({ path: screenshotPath('api-pix-tab'), fullPage: true })

  // Paid through the sandbox, then its location unbound: the rows follow without a reload.
  const paid = await app.inject({ method: 'POST', url: '/__sandbox/pix/pay', payload: { pixCode: cob.pixCopiaECola } })
  t.equal(paid.statusCode, 201, paid.body)
  await row.locator('.row-summary .badge', { hasText: 'CONCLUIDA' }).waitFor()
  await call('DELETE', `/v2/loc/${cob.loc.id}/txid`)
  await locRow(cob.loc.id).locator('.row-summary .badge', { hasText: 'free' }).waitFor()
  await row.locator('[data-testid="location"]', { hasText: `none (unbound from loc ${cob.loc.id})` }).waitFor()

  // All accounts: each row names its account.
  await page.goto(`${base}/dashboard#apipix`)
  await page.locator('body[data-view="apipix"] #live[data-state="live"]').waitFor()
  await cobRow(txidOf(1)).locator('.cell.acct', { hasText: '#1' }).waitFor()
  t.same(pageErrors, [])
})
