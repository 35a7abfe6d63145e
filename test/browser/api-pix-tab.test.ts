import t from 'tap'
import { once } from 'node:events'
import { createServer } from 'node:net'
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
const cobvRow = (txid: string) => session.page.locator('#ap-cobv-list > li').filter({ hasText: txid })

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
  t.same(await page.locator('#ap-blocks h3').allTextContents(), ['Charges (cob)', 'Due charges (cobv)', 'Batches of due charges (lotecobv)', 'Webhooks (webhook, webhookrec, webhookcobr)', 'Payload locations (loc)', 'Recurrences (rec, Pix Automático)'])

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

t.test('the API Pix tab: cobvs with due date, amount due today and location; batches with each request\'s status and problem; kept up to date', async (t) => {
  t.setTimeout(60_000)
  const { app, base, page, pageErrors } = session
  const token = await oauthToken(app)
  const call = async (method: 'PUT' | 'PATCH', url: string, payload: Record<string, unknown>) => {
    const res = await app.inject({ method, url, headers: bearer(token), payload })
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`)
    return res.body === '' ? null : res.json()
  }
  const request = (n: number, dataDeVencimento: string) => ({
    txid: txidOf(n), calendario: { dataDeVencimento }, devedor: { cpf: '52998224725', nome: 'MARIA' }, valor: { original: '40.00' }, chave: 'loja@example.com',
  })
  const { txid, ...body } = { ...request(20, '2026-03-20'), valor: { original: '100.00', desconto: { modalidade: 3, valorPerc: '0.50' } } }
  const cobv = await call('PUT', `/v2/cobv/${txid}`, body)
  await call('PUT', '/v2/lotecobv/3', { descricao: 'alunos de março', cobsv: [request(21, '2026-03-25'), request(22, '2026-03-01')] })

  await page.goto(`${base}/dashboard?account=1#apipix`)
  await page.locator('body[data-view="apipix"] #live[data-state="live"]').waitFor()
  const row = cobvRow(txid)
  await row.waitFor()
  t.equal(await row.locator('.badge').textContent(), 'ATIVA')
  t.match(await row.textContent(), 'due 2026-03-20')
  t.match(await row.locator('[data-testid="due-today"]').textContent(), /95,00/, '10 calendar days early: 0.50 off each')
  t.equal(await row.locator('[data-testid="location"]').textContent(), cobv.location)

  const batch = page.locator('#ap-lotecobv-list > li[data-key="1-3"]')
  await batch.waitFor()
  t.same(await batch.locator('.cell.kind').evaluate(c => ({ text: c.textContent, cut: c.scrollWidth > c.clientWidth })), { text: 'lote #3 · alunos de março', cut: false }, 'its description is not cut where the row has room')
  await batch.locator('[data-testid="count-EM_PROCESSAMENTO"]', { hasText: '2 EM_PROCESSAMENTO' }).waitFor()
  // Processed by the sandbox: one created, one refused with its problem; the rows follow without a reload.
  await app.inject({ method: 'POST', url: '/__sandbox/clock/advance', payload: { ms: 50 } })
  await batch.locator('[data-testid="count-CRIADA"]', { hasText: '1 CRIADA' }).waitFor()
  t.equal(await batch.locator('[data-testid="count-NEGADA"]').textContent(), '1 NEGADA')
  await batch.locator('.row-summary').click()
  const refused = batch.locator(`.batch-items li[data-txid="${txidOf(22)}"]`)
  await refused.waitFor()
  t.equal(await refused.locator('.badge').textContent(), 'NEGADA')
  t.match(await refused.textContent(), 'cobv.calendario.dataDeVencimento', 'its problem, with the property refused')
  t.equal(await batch.locator(`.batch-items li[data-txid="${txidOf(21)}"] .badge`).textContent(), 'CRIADA')
  await cobvRow(txidOf(21)).waitFor()
  await page.screenshot({ path: screenshotPath('api-pix-tab-cobv'), fullPage: true })

  await call('PATCH', `/v2/cobv/${txid}`, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })
  await row.locator('.row-summary .badge', { hasText: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' }).waitFor()
  t.equal(await row.locator('[data-testid="due-today"]').textContent(), 'not payable today')
  t.same(pageErrors, [])
})

t.test('the API Pix tab: the webhooks per key and of the whole account (webhookrec, webhookcobr), with the URL their callbacks go to', async (t) => {
  t.setTimeout(60_000)
  const { app, base, page, pageErrors } = session
  const { document } = (await app.inject({ method: 'GET', url: '/__sandbox/accounts/1' })).json()
  const token = await oauthToken(app)
  // Its receivers are example domains nobody runs: the account's mTLS check is off, as a user without a receiver turns it.
  t.equal((await app.inject({ method: 'PATCH', url: '/__sandbox/accounts/1', payload: { webhookMtlsCheck: false } })).statusCode, 200)
  for (const [url, webhookUrl] of [[`/v2/webhook/${document}`, 'https://erp.example.com/hooks'], ['/v2/webhookrec', 'https://erp.example.com/recs/'], ['/v2/webhookcobr', 'https://erp.example.com/cobrs']]) {
    const put = await app.inject({ method: 'PUT', url, headers: bearer(token), payload: { webhookUrl } })
    t.equal(put.statusCode, 200, put.body)
  }
  await page.goto(`${base}/dashboard?account=1#apipix`)
  await page.locator('body[data-view="apipix"] #live[data-state="live"]').waitFor()
  for (const [key, callbackUrl, callback] of [[document, 'https://erp.example.com/hooks/pix', 'pix'], ['rec', 'https://erp.example.com/recs/rec', 'rec'], ['cobr', 'https://erp.example.com/cobrs/cobr', 'cobr']]) {
    const row = page.locator(`#ap-webhook-list > li[data-key="1-${key}"]`)
    await row.waitFor()
    t.equal(await row.locator('[data-testid="callback-url"]').textContent(), callbackUrl)
    t.equal(await row.locator('.badge').textContent(), callback)
  }
  const perKey = page.locator(`#ap-webhook-list > li[data-key="1-${document}"]`)
  await perKey.locator('.row-summary').click()
  t.match(await perKey.locator('[data-testid="mtls-check"]').textContent(), /^not checked/, 'the webhook says its receiver was not checked')
  t.match(await page.locator('#ap-webhook-list > li[data-key="1-rec"] .cell.kind').textContent(), '/webhookrec')
  t.same(pageErrors, [])
})

t.test('the API Pix tab opens with a line, not a paragraph, and shows a webhook\'s URL and a due charge\'s txid and location whole where the row has room', async (t) => {
  t.setTimeout(60_000)
  const { app, base, page, pageErrors } = session
  const token = await oauthToken(app)
  const longUrl = 'https://erp.example.com.br/integracoes/pix/recebimentos/notificacoes'
  const put = await app.inject({ method: 'PUT', url: '/v2/webhookcobr', headers: bearer(token), payload: { webhookUrl: longUrl } })
  t.equal(put.statusCode, 200, put.body)
  const txid = 'largura'.padEnd(35, '0')
  const cobv = await app.inject({ method: 'PUT', url: `/v2/cobv/${txid}`, headers: bearer(token), payload: { calendario: { dataDeVencimento: '2026-03-30' }, devedor: { cpf: '52998224725', nome: 'ALUNA' }, valor: { original: '10.00' }, chave: 'escola@example.com' } })
  t.equal(cobv.statusCode, 201, cobv.body)
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.goto(`${base}/dashboard?account=1#apipix`)
  await page.locator('body[data-view="apipix"] #live[data-state="live"]').waitFor()

  const intro = page.locator('#view-apipix > p.muted').first()
  const lines = await intro.evaluate(p => Math.round(p.getBoundingClientRect().height / parseFloat(getComputedStyle(p).lineHeight)))
  t.ok(lines <= 2, `the intro takes ${lines} line(s) at 1280 px`)
  t.equal((await page.locator('#ap-blocks > section > p.about').allTextContents()).filter(text => text.length > 0).length, 6, 'what each block lists is said in the block')

  const whole = async (cell: ReturnType<typeof page.locator>) => cell.evaluate(c => ({ text: c.textContent, cut: c.scrollWidth > c.clientWidth }))
  const url = page.locator('#ap-webhook-list > li[data-key="1-cobr"] [data-testid="callback-url"]')
  await url.waitFor()
  t.same(await whole(url), { text: `${longUrl}/cobr`, cut: false }, 'the callback URL is not cut')
  const row = page.locator('#ap-cobv-list > li').filter({ hasText: txid })
  t.same(await whole(row.locator('.cell.kind')), { text: txid, cut: false }, 'a txid of 35 characters is not cut')
  t.same(await whole(row.locator('[data-testid="location"]')), { text: cobv.json().location, cut: false }, 'nor its location')
  await page.screenshot({ path: screenshotPath('api-pix-tab-widths'), fullPage: true })
  t.same(pageErrors, [])
})

t.test('the API Pix tab: recurrences with status, periodicity, value rule and debtor, each with its recurring charges and their attempts; kept up to date', async (t) => {
  t.setTimeout(60_000)
  const { app, base, page, pageErrors } = session
  const token = await oauthToken(app)
  const call = async (method: 'PUT' | 'POST', url: string, payload: Record<string, unknown>) => {
    const res = await app.inject({ method, url, headers: url.startsWith('/__sandbox') ? {} : bearer(token), payload })
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`)
    return res.json()
  }
  const { idRec } = await call('POST', '/v2/rec', { vinculo: { contrato: 'DASH-1', devedor: { cpf: '52998224725', nome: 'MARIA PAGADORA' } }, calendario: { dataInicial: '2026-03-20', periodicidade: 'MENSAL' }, valor: { valorRec: '49.90' }, politicaRetentativa: 'NAO_PERMITE' })

  await page.goto(`${base}/dashboard?account=1#apipix`)
  await page.locator('body[data-view="apipix"] #live[data-state="live"]').waitFor()
  const row = page.locator(`#ap-rec-list > li[data-key="${idRec}"]`)
  await row.waitFor()
  t.equal(await row.locator('.row-summary .badge').textContent(), 'CRIADA')
  t.equal(await row.locator('[data-testid="periodicity"]').textContent(), 'MENSAL')
  t.match(await row.locator('[data-testid="value-rule"]').textContent(), /^fixed R\$\s49,90$/)
  t.equal(await row.locator('[data-testid="debtor"]').textContent(), 'MARIA PAGADORA (52998224725) · 0 cobr')

  // Approved by its payer, charged, and debited on its date: the row follows without a reload.
  await call('POST', `/__sandbox/recurrences/${idRec}/approve`, {})
  await row.locator('.row-summary .badge', { hasText: 'APROVADA' }).waitFor()
  const txid = txidOf(30)
  await call('PUT', `/v2/cobr/${txid}`, { idRec, calendario: { dataDeVencimento: '2026-03-20' }, valor: { original: '49.90' }, ajusteDiaUtil: false, recebedor: { conta: '012682', tipoConta: 'CORRENTE', agencia: '9708' } })
  await app.inject({ method: 'POST', url: '/__sandbox/clock/advance', payload: { ms: 1000 } })
  await row.locator('[data-testid="debtor"]', { hasText: '· 1 cobr' }).waitFor()
  await row.locator('.row-summary').click()
  const charge = row.locator(`.batch-items li[data-txid="${txid}"]`)
  await charge.waitFor()
  t.match(await charge.textContent(), 'due 2026-03-20')
  t.equal(await charge.locator('.badge').first().textContent(), 'ATIVA')
  t.equal(await charge.locator('li[data-attempt="AGND-2026-03-20"] .badge').textContent(), 'AGENDADA')
  t.match(await row.locator('.row-detail').textContent(), 'JORNADA_2')
  await page.screenshot({ path: screenshotPath('api-pix-tab-rec'), fullPage: true })

  const due = await call('POST', '/__sandbox/clock/next-due', { accountId: 1 })
  t.match(due, { debit: { txid, status: 'CONCLUIDA' } })
  await charge.locator('li[data-attempt="AGND-2026-03-20"] .badge', { hasText: 'PAGA' }).waitFor()
  t.equal(await charge.locator('.badge').first().textContent(), 'CONCLUIDA')
  t.same(pageErrors, [])
})

t.test('the API Pix tab: a recurrence\'s codes a payer scans, its location\'s (journey 2) and the static code of its contract (journey 4), each to copy; a recurrence without location shows the refusal', async (t) => {
  t.setTimeout(60_000)
  const { app, base, page, pageErrors } = session
  const token = await oauthToken(app)
  const call = async (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) => {
    const res = await app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) })
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`)
    return res.json()
  }
  const terms = (contrato: string) => ({ vinculo: { contrato, devedor: { cpf: '52998224725', nome: 'MARIA PAGADORA' } }, calendario: { dataInicial: '2026-03-20', periodicidade: 'MENSAL' }, valor: { valorRec: '49.90' }, politicaRetentativa: 'NAO_PERMITE' })
  const locrec = await call('POST', '/v2/locrec')
  const { idRec } = await call('POST', '/v2/rec', { ...terms('CODES1'), loc: locrec.id })
  const { idRec: bare } = await call('POST', '/v2/rec', terms('CODES2'))
  const { dadosQR } = await call('GET', `/v2/rec/${idRec}`)

  await page.goto(`${base}/dashboard?account=1#apipix`)
  await page.locator('body[data-view="apipix"] #live[data-state="live"]').waitFor()
  const row = page.locator(`#ap-rec-list > li[data-key="${idRec}"]`)
  await row.locator('.row-summary').click()
  const detail = row.locator('.row-detail')
  await detail.waitFor()
  t.match(await detail.textContent(), locrec.location, 'its location')
  t.equal(await detail.locator('[data-testid="rec-code"]').inputValue(), dadosQR.pixCopiaECola, 'the code of GET /v2/rec/{idRec}')
  t.equal(await detail.getByRole('button', { name: 'Copy code' }).count(), 1)

  await detail.getByLabel('Amount of the static code (BRL, optional)').fill('49.90')
  await detail.getByRole('button', { name: 'Static code of the contract' }).click()
  const shown = detail.locator('[data-testid="static-code"]')
  await shown.waitFor()
  const answered = await app.inject({ method: 'POST', url: `/__sandbox/recurrences/${idRec}/static-code`, payload: { valor: '49.90' } })
  t.equal(answered.statusCode, 200, answered.body)
  t.equal(await shown.inputValue(), answered.json().pixCopiaECola, 'the code the control plane answers')
  t.equal(await detail.getByRole('button', { name: 'Copy code' }).count(), 2, 'each code with its copy button')
  await page.screenshot({ path: screenshotPath('api-pix-tab-rec-codes'), fullPage: true })

  const other = page.locator(`#ap-rec-list > li[data-key="${bare}"]`)
  await other.locator('.row-summary').click()
  // Counted once its detail is drawn: before that, no code shows whatever the recurrence has.
  await other.locator('.row-detail').waitFor()
  t.equal(await other.locator('[data-testid="rec-code"]').count(), 0, 'no location, no code of journey 2')
  await other.getByRole('button', { name: 'Static code of the contract' }).click()
  await page.locator('#ap-rec-error', { hasText: 'location' }).waitFor()
  t.equal(await other.locator('[data-testid="static-code"]').count(), 0)
  t.same(pageErrors, [])
})

t.test('the API Pix tab shows the last 50 batches made, and older ones a page at a time on demand', async (t) => {
  t.setTimeout(60_000)
  const { app, base, page, pageErrors } = session
  const token = await oauthToken(app)
  for (let id = 100; id <= 150; id++) {
    const res = await app.inject({ method: 'PUT', url: `/v2/lotecobv/${id}`, headers: bearer(token), payload: { descricao: `lote ${id}`, cobsv: [{ txid: txidOf(7000 + id), calendario: { dataDeVencimento: '2026-04-20' }, devedor: { cpf: '52998224725', nome: 'MARIA' }, valor: { original: '40.00' }, chave: 'loja@example.com' }] } })
    t.equal(res.statusCode, 202, res.body)
  }
  const all = (await app.inject({ method: 'GET', url: '/__sandbox/cobv-batches?accountId=1&limit=1000' })).json().batches.length
  t.ok(all > 51, 'older batches of the tests before this one remain')

  await page.goto(`${base}/dashboard?account=1#apipix`)
  await page.locator('body[data-view="apipix"] #live[data-state="live"]').waitFor()
  const rows = page.locator('#ap-lotecobv-list > li')
  await page.locator('#ap-lotecobv-list > li[data-key="1-150"]').waitFor()
  t.equal(await rows.count(), 50, 'one page: the last 50 made')
  t.equal(await page.locator('#ap-lotecobv-list > li[data-key="1-100"]').count(), 0, 'the first of them is on the next page')
  await page.getByRole('button', { name: 'Show older batches' }).click()
  await page.locator('#ap-lotecobv-list > li[data-key="1-100"]').waitFor()
  t.equal(await rows.count(), Math.min(all, 100), 'two pages')
  t.same(pageErrors, [])
})

t.test('the API Pix tab shows the last 50 recurrences made, and older ones a page at a time on demand', async (t) => {
  t.setTimeout(60_000)
  const { app, base, page, pageErrors } = session
  const token = await oauthToken(app)
  const made: string[] = []
  for (let i = 0; i < 51; i++) {
    const res = await app.inject({ method: 'POST', url: '/v2/rec', headers: bearer(token), payload: { vinculo: { contrato: `PAGE-${i}`, devedor: { cpf: '52998224725', nome: 'MARIA PAGADORA' } }, calendario: { dataInicial: '2026-03-20', periodicidade: 'MENSAL' }, valor: { valorRec: '9.90' }, politicaRetentativa: 'NAO_PERMITE' } })
    t.equal(res.statusCode, 201, res.body)
    made.push(res.json().idRec)
  }
  const all = (await app.inject({ method: 'GET', url: '/__sandbox/recurrences?accountId=1&limit=1000' })).json().recurrences.length
  t.ok(all > 51, 'older recurrences of the tests before this one remain')

  await page.goto(`${base}/dashboard?account=1#apipix`)
  await page.locator('body[data-view="apipix"] #live[data-state="live"]').waitFor()
  const rows = page.locator('#ap-rec-list > li')
  await page.locator(`#ap-rec-list > li[data-key="${made[50]}"]`).waitFor()
  t.equal(await rows.count(), 50, 'one page: the last 50 made')
  t.equal(await page.locator(`#ap-rec-list > li[data-key="${made[0]}"]`).count(), 0, 'the first of them is on the next page')
  const more = page.getByRole('button', { name: 'Show older recurrences' })
  await more.click()
  await page.locator(`#ap-rec-list > li[data-key="${made[0]}"]`).waitFor()
  t.equal(await rows.count(), Math.min(all, 100), 'two pages')
  t.same(pageErrors, [])
})

t.test('the delivery log marks an attempt of a callback that went over mutual TLS (the sandbox\'s client certificate presented), and one that went over plain http', async (t) => {
  t.setTimeout(60_000)
  const { app, base, page, pageErrors } = session
  const { document } = (await app.inject({ method: 'GET', url: '/__sandbox/accounts/1' })).json()
  const token = await oauthToken(app)
  // No receiver listens: the account's mTLS check is off, as a user without a receiver turns it.
  t.equal((await app.inject({ method: 'PATCH', url: '/__sandbox/accounts/1', payload: { webhookMtlsCheck: false } })).statusCode, 200)
  // An https receiver nothing listens at: the attempt is refused, and made with the certificate all the same.
  const closed = createServer().listen(0, '127.0.0.1')
  await once(closed, 'listening')
  const port = (closed.address() as import('node:net').AddressInfo).port
  closed.close()
  await once(closed, 'close')
  const put = await app.inject({ method: 'PUT', url: `/v2/webhook/${document}`, headers: bearer(token), payload: { webhookUrl: `https://127.0.0.1:${port}/mtls` } })
  t.equal(put.statusCode, 200, put.body)
  const cob = await app.inject({ method: 'PUT', url: `/v2/cob/${txidOf(9)}`, headers: bearer(token), payload: { calendario: {}, valor: { original: '3.21' }, chave: document } })
  t.equal(cob.statusCode, 201, cob.body)
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/pix/pay', payload: { pixCode: cob.json().pixCopiaECola } })).statusCode, 201)
  await app.sandbox.webhooks.idle()

  await page.goto(`${base}/dashboard?account=1#deliveries`)
  await page.locator('body[data-view="deliveries"] #live[data-state="live"]').waitFor()
  const row = page.locator('#dl-list > li').filter({ hasText: `127.0.0.1:${port}/mtls/pix` }).first()
  await row.locator('.row-summary').click()
  const attempt = row.locator('.attempt').first()
  await attempt.waitFor()
  t.equal(await attempt.locator('.badge', { hasText: 'mTLS' }).count(), 1, 'the attempt is marked mTLS')
  t.match(await attempt.textContent(), /ECONNREFUSED/)
  t.equal(await attempt.locator('.badge', { hasText: 'no TLS' }).count(), 0)

  t.equal((await app.inject({ method: 'PUT', url: `/v2/webhook/${document}`, headers: bearer(token), payload: { webhookUrl: `http://127.0.0.1:${port}/plain` } })).statusCode, 200)
  const cob2 = await app.inject({ method: 'PUT', url: `/v2/cob/${txidOf(97)}`, headers: bearer(token), payload: { calendario: {}, valor: { original: '3.22' }, chave: document } })
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/pix/pay', payload: { pixCode: cob2.json().pixCopiaECola } })).statusCode, 201)
  await app.sandbox.webhooks.idle()
  const plainRow = page.locator('#dl-list > li').filter({ hasText: `127.0.0.1:${port}/plain/pix` }).first()
  await plainRow.locator('.row-summary').click()
  const plainAttempt = plainRow.locator('.attempt').first()
  await plainAttempt.waitFor()
  t.equal(await plainAttempt.locator('.badge', { hasText: 'no TLS' }).count(), 1, 'the attempt is marked: without TLS')
  t.equal(await plainAttempt.locator('.badge', { hasText: 'mTLS' }).count(), 0)
  t.same(pageErrors, [])
})

t.test('the API Pix tab shows the last 50 cobvs, locations and webhooks made, and older ones a page at a time on demand', async (t) => {
  t.setTimeout(90_000)
  const { app, base, page, pageErrors } = session
  const token = await oauthToken(app)
  // Each cobv at a location of its own: 51 of each.
  const cobvs: Array<{ chargeId: string, locId: number }> = []
  for (let i = 0; i < 51; i++) {
    const res = await app.inject({ method: 'PUT', url: `/v2/cobv/${txidOf(8000 + i)}`, headers: bearer(token), payload: { calendario: { dataDeVencimento: '2026-04-20' }, devedor: { cpf: '52998224725', nome: 'MARIA' }, valor: { original: '12.00' }, chave: 'loja@example.com' } })
    t.equal(res.statusCode, 201, res.body)
    const listed = (await app.inject({ method: 'GET', url: '/__sandbox/cobvs?accountId=1&limit=1' })).json().cobvs[0]
    cobvs.push({ chargeId: listed.chargeId, locId: res.json().loc.id })
  }
  // An account has three webhooks at most here (its document's key, /webhookrec, /webhookcobr): 17 accounts make 51.
  const webhooks: string[] = []
  for (let i = 0; i < 17; i++) {
    const acc = (await app.inject({ method: 'POST', url: '/__sandbox/accounts', payload: { name: `WEBHOOKS ${i}`, webhookMtlsCheck: false } })).json()
    const theirs = await oauthToken(app, acc)
    for (const [path, slot] of [[`/v2/webhook/${acc.document}`, acc.document], ['/v2/webhookrec', 'rec'], ['/v2/webhookcobr', 'cobr']]) {
      const res = await app.inject({ method: 'PUT', url: path, headers: bearer(theirs), payload: { webhookUrl: 'http://127.0.0.1:9/hook' } })
      t.equal(res.statusCode, 200, res.body)
      webhooks.push(`${acc.accountId}-${slot}`)
    }
  }
  const count = async (path: string, items: string) => (await app.inject({ method: 'GET', url: `${path}?limit=1000` })).json()[items].length

  const blocks = [
    { list: '#ap-cobv-list', first: cobvs[0].chargeId, last: cobvs[50].chargeId, more: 'Show older cobvs', all: await count('/__sandbox/cobvs', 'cobvs') },
    { list: '#ap-loc-list', first: String(cobvs[0].locId), last: String(cobvs[50].locId), more: 'Show older locations', all: await count('/__sandbox/locations', 'locations') },
    { list: '#ap-webhook-list', first: webhooks[0], last: webhooks[50], more: 'Show older webhooks', all: await count('/__sandbox/api-pix-webhooks', 'webhooks') },
  ]
  // Every account's: the webhooks are of 17 accounts.
  await page.goto(`${base}/dashboard#apipix`)
  await page.locator('body[data-view="apipix"] #live[data-state="live"]').waitFor()
  for (const block of blocks) {
    const rows = page.locator(`${block.list} > li`)
    await page.locator(`${block.list} > li[data-key="${block.last}"]`).waitFor()
    t.equal(await rows.count(), 50, `${block.list}: one page, the last 50 made`)
    t.equal(await page.locator(`${block.list} > li[data-key="${block.first}"]`).count(), 0, `${block.list}: the first of them is on the next page`)
    await page.getByRole('button', { name: block.more }).click()
    await page.locator(`${block.list} > li[data-key="${block.first}"]`).waitFor()
    t.equal(await rows.count(), Math.min(block.all, 100), `${block.list}: two pages`)
  }
  t.same(pageErrors, [])
})
