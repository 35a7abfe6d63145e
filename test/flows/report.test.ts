import t, { type Test } from 'tap'
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { startSandbox, type CreatedAccount, type RunningSandbox } from '../../server/index.js'
import type { IntegrationReport } from '../../client/index.js'
import { buildBrCode } from '../../server/domain/brcode.js'
import { checks } from '../helpers/report.js'

/**
 * Two whole integrations, written as an integrator would write them, graded by the report: one that
 * does what a PSP's homologation asks (every check passes) and one that does what it forbids (each
 * check fails with its evidence). Both talk to a sandbox listening on 127.0.0.1 over HTTP, with their
 * webhook receivers on 127.0.0.1 too.
 */
const SECRET = 'report-flow-secret'
const JOAO = { key: 'joao.souza@example.com', document: '03742693433' }
const BLOCKED_KEY = 'bloqueada@example.com'

async function sandbox (t: Test): Promise<RunningSandbox> {
  const sb = await startSandbox({ port: 0, clock: 'frozen', clockStart: '2026-03-10T15:00:00.000Z', webhookSecret: SECRET, webhookMaxAttempts: 2, webhookBackoffMs: 1000 })
  t.teardown(() => sb.close())
  return sb
}

/** A webhook receiver of the integration: `answer` decides what each delivery gets. */
async function receiver (t: Test, answer: (headers: IncomingHttpHeaders, body: string) => number): Promise<{ url: string, received: Array<{ headers: IncomingHttpHeaders, body: string, status: number }> }> {
  const received: Array<{ headers: IncomingHttpHeaders, body: string, status: number }> = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', c => { body += c })
    req.on('end', () => {
      const status = answer(req.headers, body)
      received.push({ headers: req.headers, body, status })
      res.writeHead(status).end()
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>(resolve => { server.closeAllConnections(); server.close(() => resolve()) }))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/pix/webhooks`, received }
}

function verified (headers: IncomingHttpHeaders, body: string): boolean {
  const expected = 'v1=' + createHmac('sha256', SECRET).update(`${String(headers['x-sandbox-timestamp'])}.${body}`).digest('hex')
  const given = String(headers['x-sandbox-signature'] ?? '')
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected))
}

interface Answer { status: number, body: any }

/** The integration's HTTP layer: JSON over fetch, a connection error as status 0. */
async function send (base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(base + path, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) })
  const text = await res.text()
  return { status: res.status, body: text ? JSON.parse(text) : null }
}

const FINAL_REFUSALS = new Set(['PIX_INSUFFICIENT_BALANCE', 'PIX_TRANSACTION_LIMIT_EXCEEDED', 'PIX_DAILY_LIMIT_EXCEEDED', 'PIX_NIGHT_LIMIT_EXCEEDED', 'PIX_INVALID_PIX_KEY'])
const cashOutBody = (externalId: string, value: number, key = JOAO.key) => ({ value, externalId, details: { key, keyType: 'EMAIL', name: 'JOAO SOUZA', document: JOAO.document } })

/** Written as the gateway's documentation asks (docs/gateway.md §5, 6.2, 6.4, 7.2, 7.3, 4.1). */
class CarefulIntegration {
  private token: string | null = null
  readonly outcomes = new Map<string, string>()

  constructor (private readonly base: string, private readonly account: CreatedAccount) {}

  /** One token, reused; a new one only when the gateway says the old one expired, then the call once more. */
  private async call (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    this.token ??= await this.newToken()
    let res = await send(this.base, method, path, body, { authorization: `Bearer ${this.token}`, ...headers })
    if (res.status === 401) {
      this.token = await this.newToken()
      res = await send(this.base, method, path, body, { authorization: `Bearer ${this.token}`, ...headers })
    }
    return res
  }

  private async newToken (): Promise<string> {
    const res = await send(this.base, 'POST', '/api/auth/token', { clientId: this.account.clientId, clientSecret: this.account.clientSecret }, { 'x-ssl-client-cert': encodeURIComponent(this.account.certificate) })
    return res.body.access_token
  }

  balance (): Promise<Answer> { return this.call('GET', '/balance') }

  /** A refusal that would answer the same again is final; a 500 is unknown: find the payment before anything else. */
  async pay (path: string, body: { externalId: string, [field: string]: unknown }, scenario?: string): Promise<string> {
    const res = await this.call('POST', path, body, scenario ? { 'x-sandbox-scenario': scenario } : {})
    if (res.status === 201) return res.body.status
    if (res.status === 400 && FINAL_REFUSALS.has(res.body.errorCode)) return 'REFUSED'
    if (res.status >= 500) {
      const found = await send(this.base, 'GET', `/__sandbox/transactions?accountId=${this.account.accountId}`)
      const tx = found.body.transactions.find((x: { externalId?: string }) => x.externalId === body.externalId)
      if (tx) return tx.status
      return this.pay(path, body) // not made: the same externalId again, so it can never be made twice
    }
    throw new Error(`unexpected ${res.status} ${JSON.stringify(res.body)}`)
  }

  async charge (value: number): Promise<{ transactionId: string, pixCode: string }> {
    const res = await this.call('POST', '/api/pix/cash-in', { transaction: { value, description: 'Pedido', externalId: randomUUID() }, payer: { fullName: 'MARIA DA SILVA', document: '52998224725' } })
    return res.body
  }

  async refund (transactionId: string, value: number, received: number, refunded: number): Promise<number> {
    const refundValue = Math.min(value, received - refunded)
    const res = await this.call('POST', `/api/pix/refund-in/${transactionId}`, { refundValue, externalId: randomUUID().replaceAll('-', '') })
    return res.status
  }

  /** Signatures checked; every genuine delivery acknowledged at once, duplicates included. */
  receive (headers: IncomingHttpHeaders, body: string): number {
    if (!verified(headers, body)) return 401
    const event = JSON.parse(body)
    if (event.event === 'CashOut') this.outcomes.set(event.externalId, event.status)
    return 200
  }
}

/** Written against the documentation's advice, one habit per check. */
class CarelessIntegration {
  /** A poller's token, fetched once and never renewed. */
  private pollerToken: string | null = null

  constructor (private readonly base: string, private readonly account: CreatedAccount) {}

  private async newToken (): Promise<string> {
    const res = await send(this.base, 'POST', '/api/auth/token', { clientId: this.account.clientId, clientSecret: this.account.clientSecret }, { 'x-ssl-client-cert': encodeURIComponent(this.account.certificate) })
    return res.body.access_token
  }

  /** A token per request. */
  async call (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    return send(this.base, method, path, body, { authorization: `Bearer ${await this.newToken()}`, ...headers })
  }

  async poll (): Promise<number> {
    this.pollerToken ??= await this.newToken()
    return (await send(this.base, 'GET', '/balance', undefined, { authorization: `Bearer ${this.pollerToken}` })).status
  }

  /** Any failure is tried once more; a 500 gets a fresh externalId, "to be safe". */
  async pay (path: string, body: { externalId: string, [field: string]: unknown }, scenario?: string): Promise<number> {
    const res = await this.call('POST', path, body, scenario ? { 'x-sandbox-scenario': scenario } : {})
    if (res.status === 400) return (await this.call('POST', path, body, scenario ? { 'x-sandbox-scenario': scenario } : {})).status
    if (res.status >= 500) return (await this.call('POST', path, { ...body, externalId: randomUUID() })).status
    return res.status
  }

  charge (value: number): Promise<Answer> {
    return this.call('POST', '/api/pix/cash-in', { transaction: { value, description: 'Pedido', externalId: 'pedido' }, payer: { fullName: 'MARIA DA SILVA', document: '52998224725' } })
  }

  /** Refunds what the customer asks, whatever was paid. */
  async refund (transactionId: string, value: number): Promise<number> {
    return (await this.call('POST', `/api/pix/refund-in/${transactionId}`, { refundValue: value })).status
  }

  /** No signature check; a cash-in notification crashes the handler. */
  receive (_headers: IncomingHttpHeaders, body: string): number {
    return JSON.parse(body).type === 'RECEIVE' ? 500 : 200
  }
}

async function registerAll (sb: RunningSandbox, accountId: number, url: string): Promise<void> {
  for (const eventType of ['cash_out', 'cash_in', 'refund_in'] as const) await sb.client.sandbox.registerWebhook({ accountId, eventType, url })
}

/** Until no delivery of the account is pending (a pending retry waits for the clock, which `advance` moves). */
async function deliveriesDone (sb: RunningSandbox, accountId: number, advance = 0): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (advance > 0) await sb.advanceClock(advance)
    const { total } = await sb.client.sandbox.deliveries({ accountId, status: 'pending' })
    if (total === 0) return
    await new Promise(resolve => setTimeout(resolve, 20))
  }
  throw new Error('deliveries still pending')
}

const byId = (report: IntegrationReport) => Object.fromEntries(report.checks.map(c => [c.id, c]))
/** The checks an integration of the gateway alone meets, and those of API Pix alone. */
const gatewayChecks = checks.filter(c => c.dialects.includes('gateway'))
const apiPixChecks = checks.filter(c => c.dialects.includes('api-pix') && !c.dialects.includes('gateway'))
/** The checks of neither the gateway nor API Pix (Mercado Pago's): not applicable to an integration of those. */
const otherChecks = checks.filter(c => !c.dialects.includes('gateway') && !c.dialects.includes('api-pix'))

t.test('an integration written as the gateway asks passes every check', async t => {
  const sb = await sandbox(t)
  // Through the control plane: startSandbox's createAccount would fetch a token the integration never asked for.
  const account = await sb.client.sandbox.createAccount({ balance: 1000 })
  const app = new CarefulIntegration(sb.url, account)
  const hook = await receiver(t, (h, b) => app.receive(h, b))
  await registerAll(sb, account.accountId, hook.url)

  t.equal(await app.pay('/api/pix/cash-out', cashOutBody('order-1', 10)), 'PENDING')
  t.equal(await app.pay('/api/pix/cash-out', cashOutBody('order-2', 10), 'INSUFFICIENT_FUNDS'), 'REFUSED')
  const qrCode = buildBrCode({ key: JOAO.key, amountCents: 1500, merchantName: 'JOAO SOUZA', merchantCity: 'RECIFE' })
  t.equal(await app.pay('/api/pix/cash-out-qrcode', { value: 15, qrCode, externalId: 'order-3' }, 'INTERNAL_ERROR'), 'PENDING', 'found by the query')
  t.equal(await app.pay('/api/pix/cash-out', cashOutBody('order-4', 20, BLOCKED_KEY)), 'PENDING')
  const charge = await app.charge(50)
  await sb.client.sandbox.pay(charge.pixCode)
  await sb.advanceClock(1000)
  await deliveriesDone(sb, account.accountId)
  t.equal(app.outcomes.get('order-4'), 'ERROR', 'the blocked key failed; it is not paid again')
  t.equal(await app.refund(charge.transactionId, 20, 50, 0), 201)
  t.equal(await app.refund(charge.transactionId, 40, 50, 20), 201, 'asked 40, refunded the 30 left')
  await sb.advanceClock(31 * 60_000)
  t.equal((await app.balance()).status, 200, 'a new token after the expired one')
  t.equal((await sb.client.sandbox.reportProbe({ accountId: account.accountId })).deliveries.length, 1)
  await deliveriesDone(sb, account.accountId)

  const report = await sb.client.sandbox.report(account.accountId)
  const got = byId(report)
  for (const c of gatewayChecks) t.equal(got[c.id].status, 'passed', `${c.id}: ${got[c.id].summary}`)
  for (const c of apiPixChecks) t.equal(got[c.id].status, 'not_applicable', `${c.id}: no request to API Pix`)
  t.equal(report.verdict, 'passed')
  for (const c of otherChecks) t.equal(got[c.id].status, 'not_applicable', `${c.id}: no request to its dialect`)
  t.same(report.counts, { passed: gatewayChecks.length, failed: 0, not_exercised: 0, not_applicable: apiPixChecks.length + otherChecks.length })
  t.match(got['webhook-signature-verified'].summary, /refused with 401/)
  t.ok(hook.received.some(r => r.status === 401), 'the receiver really refused the probe')
})

t.test('an integration written against the advice fails each check, with the evidence', async t => {
  const sb = await sandbox(t)
  // Through the control plane: startSandbox's createAccount would fetch a token the integration never asked for.
  const account = await sb.client.sandbox.createAccount({ balance: 1000 })
  const app = new CarelessIntegration(sb.url, account)
  const hook = await receiver(t, (h, b) => app.receive(h, b))
  await registerAll(sb, account.accountId, hook.url)

  t.equal(await app.poll(), 200)
  t.equal(await app.pay('/api/pix/cash-out', cashOutBody('order-1', 10), 'INSUFFICIENT_FUNDS'), 400, 'refused twice')
  const qrCode = buildBrCode({ key: JOAO.key, amountCents: 1500, merchantName: 'JOAO SOUZA', merchantCity: 'RECIFE' })
  t.equal(await app.pay('/api/pix/cash-out-qrcode', { value: 15, qrCode, externalId: 'order-2' }, 'INTERNAL_ERROR'), 201, 'paid a second time')
  t.equal(await app.pay('/api/pix/cash-out', cashOutBody('order-3', 20, BLOCKED_KEY)), 201)
  await sb.advanceClock(1000)
  t.equal(await app.pay('/api/pix/cash-out', cashOutBody('order-4', 20, BLOCKED_KEY)), 201, 'the blocked key again')
  t.equal((await app.call('POST', '/api/pix/cash-out', { ...cashOutBody('order-5', 10), value: 10.001 })).status, 400, 'an amount with 3 decimals')
  const first = await app.charge(50)
  t.equal(first.status, 201)
  t.equal((await app.charge(30)).status, 400, 'the same externalId again')
  await sb.client.sandbox.pay(first.body.pixCode)
  await sb.advanceClock(1000)
  t.equal(await app.refund(first.body.transactionId, 80), 400, 'more than was paid')
  await sb.advanceClock(31 * 60_000)
  t.equal(await app.poll(), 401)
  t.equal(await app.poll(), 401, 'the expired token once more')
  await sb.client.sandbox.reportProbe({ accountId: account.accountId, eventType: 'cash_out' })
  await deliveriesDone(sb, account.accountId, 5000)

  const report = await sb.client.sandbox.report(account.accountId)
  const got = byId(report)
  for (const c of gatewayChecks) t.equal(got[c.id].status, 'failed', `${c.id}: ${got[c.id].summary}`)
  t.equal(report.verdict, 'failed')
  t.match(got['token-reused'].summary, /requested while the previous one had more than 5 minutes left/)
  t.match(got['token-renewed'].evidence, [{ note: /expired token was sent again/ }])
  t.match(got['refusal-not-retried'].evidence, [{ note: /PIX_INSUFFICIENT_BALANCE twice/ }])
  t.equal(got['refusal-not-retried'].evidence[0].requestIds.length, 2)
  t.match(got['indeterminate-payout-resolved'].evidence, [{ note: /paid the same amount again/ }])
  t.equal(got['indeterminate-payout-resolved'].evidence[0].transactionIds.length, 2)
  t.match(got['final-error-not-retried'].evidence, [{ note: /BLOCKED_ACCOUNT is final/ }])
  t.match(got['webhooks-acknowledged'].evidence, [{ note: /^cash_in to .*HTTP 500/ }])
  t.match(got['webhook-signature-verified'].evidence, [{ note: /accepted with 200/ }])
  t.match(got['refunds-within-amount'].evidence, [{ note: /refused: beyond what was left/ }])
  t.match(got['charge-external-id-unique'].evidence, [{ note: /pedido refused PIX_DUPLICATE_EXTERNAL_ID/ }])
  t.match(got['requests-valid'].evidence, [{ note: 'POST /api/pix/cash-out refused PIX_INVALID_AMOUNT' }])
  // Each request id in the evidence is one the sandbox answered with (x-request-id).
  const ids = new Set(report.checks.flatMap(c => c.evidence.flatMap(e => e.requestIds)))
  t.ok(ids.size >= 8)
  for (const id of ids) t.match(id, /^[0-9a-f-]{36}$/)
})

// ---- API Pix (docs/api-pix.md): its own token, its cob, its lists ------------------------------------

const COB = (original: string) => ({ calendario: { expiracao: 3600 }, valor: { original }, chave: 'loja@example.com' })
const COBV = (original: string) => ({ calendario: { dataDeVencimento: '2026-03-20' }, devedor: { cpf: '52998224725', nome: 'MARIA' }, valor: { original }, chave: 'loja@example.com' })
const DAY = 'inicio=2026-03-10T00:00:00Z&fim=2026-03-11T00:00:00Z'
/** The document of the API Pix integrations' account: a key it holds, for its webhook per key. */
const SHOP = '11222333000181'
const txidOf = (name: string) => name.padEnd(26, '0')
/** Pix Automático: a monthly recurrence of a fixed value whose failed debits may be retried, its confirmation request, a charge of one cycle. */
const REC = { vinculo: { contrato: 'ASSINATURA-1', devedor: { cpf: '52998224725', nome: 'MARIA PAGADORA' } }, calendario: { dataInicial: '2026-03-20', dataFinal: '2027-03-20', periodicidade: 'MENSAL' }, valor: { valorRec: '49.90' }, politicaRetentativa: 'PERMITE_3R_7D' }
const SOLICREC = (idRec: string) => ({ idRec, calendario: { dataExpiracaoSolicitacao: '2026-03-12T15:00:00Z' }, destinatario: { agencia: '2569', conta: '550689', cpf: '52998224725', ispbParticipante: '91193552' } })
const COBR = (idRec: string, dataDeVencimento: string) => ({ idRec, calendario: { dataDeVencimento }, valor: { original: '49.90' }, ajusteDiaUtil: true, recebedor: { conta: '012682', tipoConta: 'CORRENTE', agencia: '9708' } })
const REC_SCOPES = 'rec.write rec.read solicrec.write cobr.write cobr.read'
const scenario = (name?: string): Record<string, string> => name ? { 'x-sandbox-scenario': name } : {}
const DAY_MS = 86_400_000
/** The control plane moves the clock to the account's next debit of a recurring charge, and runs it. */
const nextDebit = async (sb: RunningSandbox, accountId: number) => (await send(sb.url, 'POST', '/__sandbox/clock/next-due', { accountId })).body.debit

/** An API Pix client's HTTP layer: a lost answer (the connection closed) is status 0. */
async function apiPixSend (base: string, method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  try {
    return await send(base, method, `/v2${path}`, body, { authorization: `Bearer ${token}`, ...headers })
  } catch {
    return { status: 0, body: null }
  }
}

/** POST /oauth/token as a PSP's client asks for it: Basic credentials, the certificate, a form body. */
async function oauth (base: string, account: CreatedAccount, scope?: string): Promise<{ token: string, scope: string }> {
  const res = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${account.clientId}:${account.clientSecret}`).toString('base64')}`,
      'x-ssl-client-cert': encodeURIComponent(account.certificate),
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) }).toString(),
  })
  const body = await res.json() as { access_token: string, scope: string }
  return { token: body.access_token, scope: body.scope }
}

/**
 * An API Pix integration as its reference asks: one token per scope set, kept until it expires; a
 * 403 leads to a token with the scope, not the same request again; a cob creation without an answer is
 * looked up by its txid; a list is read page by page to its end.
 */
class CarefulApiPix {
  private readonly tokens = new Map<string, string>()
  constructor (private readonly base: string, private readonly account: CreatedAccount) {}

  async call (method: string, path: string, scope: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    let token = this.tokens.get(scope) ?? (await this.renew(scope))
    let res = await apiPixSend(this.base, method, path, token, body, headers)
    if (res.status === 401) {
      token = await this.renew(scope)
      res = await apiPixSend(this.base, method, path, token, body, headers)
    }
    return res
  }

  async renew (scope: string): Promise<string> {
    const { token } = await oauth(this.base, this.account, scope)
    this.tokens.set(scope, token)
    return token
  }

  /** PUT /cob/{txid}; without an answer, GET /cob/{txid} says whether it was made. */
  async createCob (txid: string, original: string, scenario?: string): Promise<string> {
    const res = await this.call('PUT', `/cob/${txid}`, 'cob.write cob.read', COB(original), scenario ? { 'x-sandbox-scenario': scenario } : {})
    if (res.status === 201) return res.body.status
    const found = await this.call('GET', `/cob/${txid}`, 'cob.write cob.read')
    return found.status === 200 ? found.body.status : 'NOT_MADE'
  }

  /** PUT /cobv/{txid}; without an answer, GET /cobv/{txid} says whether it was made. */
  async createCobV (txid: string, original: string, scenario?: string): Promise<string> {
    const res = await this.call('PUT', `/cobv/${txid}`, 'cobv.write cobv.read', COBV(original), scenario ? { 'x-sandbox-scenario': scenario } : {})
    if (res.status === 201) return res.body.status
    const found = await this.call('GET', `/cobv/${txid}`, 'cobv.write cobv.read')
    return found.status === 200 ? found.body.status : 'NOT_MADE'
  }

  /** A recurrence (POST /rec), and its payer asked to confirm it (POST /solicrec, journey 1); `name` a scenario of the payer's PSP. */
  async recurrence (name?: string): Promise<string> {
    const idRec = (await this.call('POST', '/rec', REC_SCOPES, REC, scenario(name))).body.idRec as string
    await this.call('POST', '/solicrec', REC_SCOPES, SOLICREC(idRec))
    return idRec
  }

  /** Bills a cycle only while its recurrence is APROVADA: one rejected, cancelled or expired is over. The charge's status, or the recurrence's. */
  async bill (idRec: string, txid: string, dataDeVencimento: string, name?: string): Promise<string> {
    const rec = await this.call('GET', `/rec/${idRec}`, REC_SCOPES)
    if (rec.body.status !== 'APROVADA') return rec.body.status
    return (await this.call('PUT', `/cobr/${txid}`, REC_SCOPES, COBR(idRec, dataDeVencimento), scenario(name))).body.status
  }

  /** After a failed debit of a charge waiting for a retry (its recurrence allows them), a retry the next day. Its answer's status, or null when none was asked for. */
  async retryFailedDebit (txid: string): Promise<number | null> {
    const cobr = (await this.call('GET', `/cobr/${txid}`, REC_SCOPES)).body
    const last = cobr.tentativas?.at(-1)
    if (cobr.status !== 'ATIVA' || cobr.politicaRetentativa !== 'PERMITE_3R_7D' || !['REJEITADA', 'EXPIRADA'].includes(last?.status)) return null
    const next = new Date(Date.parse(`${last.dataLiquidacao as string}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10)
    return (await this.call('POST', `/cobr/${txid}/retentativa/${next}`, REC_SCOPES)).status
  }

  /** Every cob of the day, page by page. */
  async allCobs (perPage: number): Promise<string[]> {
    const txids: string[] = []
    for (let page = 0; ; page++) {
      const res = await this.call('GET', `/cob?${DAY}&paginacao.itensPorPagina=${perPage}&paginacao.paginaAtual=${page}`, 'cob.write cob.read')
      txids.push(...res.body.cobs.map((c: { txid: string }) => c.txid))
      if (page >= res.body.parametros.paginacao.quantidadeDePaginas - 1) return txids
    }
  }
}

t.test('an integration of API Pix written as its reference asks passes every check that applies to it', async t => {
  const sb = await sandbox(t)
  const account = await sb.client.sandbox.createAccount({ balance: 1000, document: SHOP })
  const app = new CarefulApiPix(sb.url, account)
  const hook = await receiver(t, () => 200)
  t.equal((await app.call('PUT', `/webhook/${SHOP}`, 'webhook.write', { webhookUrl: hook.url })).status, 200)
  t.equal(await app.createCob(txidOf('pedido1'), '10.00'), 'ATIVA')
  t.equal(await app.createCob(txidOf('pedido2'), '20.00', 'CONNECTION_RESET;after=commit'), 'ATIVA', 'found by its txid')
  t.equal(await app.createCob(txidOf('pedido3'), '30.00'), 'ATIVA')
  t.equal(await app.createCobV(txidOf('boleto1'), '40.00', 'CONNECTION_RESET;after=commit'), 'ATIVA', 'a cobv found by its txid')
  // A PIX to the account's key: its callback to {webhookUrl}/pix, then a devolução within its amount.
  const onKey = await app.call('PUT', `/cob/${txidOf('pedido4')}`, 'cob.write cob.read', { ...COB('25.00'), chave: SHOP })
  const paid = await sb.client.sandbox.pay(onKey.body.pixCopiaECola)
  await deliveriesDone(sb, account.accountId)
  t.ok(hook.received.length > 0, 'the callback reached the receiver')
  t.equal((await app.call('PUT', `/pix/${paid.endToEndId}/devolucao/d1`, 'pix.write pix.read', { valor: '5.00' })).status, 201)
  t.same((await app.allCobs(2)).sort(), ['pedido1', 'pedido2', 'pedido3', 'pedido4'].map(txidOf), 'both pages read')
  // A token of one scope set refused for another: the integration asks for a token with that scope.
  const narrow = await app.call('POST', '/loc', 'cob.read', { tipoCob: 'cob' })
  t.equal(narrow.status, 403)
  t.equal((await app.call('POST', '/loc', 'payloadlocation.write', { tipoCob: 'cob' })).status, 201)
  await sb.advanceClock(31 * 60_000)
  t.equal((await app.call('GET', `/cob/${txidOf('pedido1')}`, 'cob.write cob.read')).status, 200, 'a new token after the expired one')

  // Pix Automático: three recurrences, their payers' PSPs approving, rejecting, never answering; only the approved one billed.
  const approved = await app.recurrence()
  const rejected = await app.recurrence('REC_PAYER_PSP_REJECTS')
  const silent = await app.recurrence('REC_PAYER_PSP_SILENT')
  await sb.advanceClock(3000)
  t.equal(await app.bill(approved, txidOf('assinatura1'), '2026-03-20', 'COBR_INSUFFICIENT_FUNDS'), 'CRIADA')
  t.equal(await app.bill(rejected, txidOf('assinatura2'), '2026-03-20'), 'REJEITADA', 'not billed')
  await sb.advanceClock(2 * DAY_MS)
  t.equal(await app.bill(silent, txidOf('assinatura3'), '2026-03-20'), 'EXPIRADA', 'not billed')
  // The payer has no funds on the day; the charge waits for a retry, which the integration asks for.
  t.match(await nextDebit(sb, account.accountId), { status: 'ATIVA' }, 'no funds at 08:00')
  t.match(await nextDebit(sb, account.accountId), { status: 'ATIVA', at: '2026-03-20T21:00:00.000Z' }, 'nor at 18:00, the evening attempt')
  t.equal(await app.retryFailedDebit(txidOf('assinatura1')), 201)
  t.match(await nextDebit(sb, account.accountId), { status: 'CONCLUIDA' }, 'paid on the retry')

  await deliveriesDone(sb, account.accountId)

  const report = await sb.client.sandbox.report(account.accountId)
  const got = byId(report)
  for (const c of checks.filter(c => c.dialects.includes('api-pix'))) t.equal(got[c.id].status, 'passed', `${c.id}: ${got[c.id].summary}`)
  for (const c of checks.filter(c => !c.dialects.includes('api-pix'))) t.equal(got[c.id].status, 'not_applicable', c.id)
  t.equal(report.verdict, 'passed', 'API Pix alone gets a complete verdict')
  t.match(got['cob-creation-resolved'].summary, /^2 charge creations without an answer/)
  t.match(got['charge-external-id-unique'].summary, /^5 charge creations/)
})

t.test('an integration of API Pix written against the advice fails each of its checks, with the evidence', async t => {
  const sb = await sandbox(t)
  const account = await sb.client.sandbox.createAccount({ balance: 1000 })
  // A token per request; the same token again after its 403, after its 401.
  const fresh = async (scope?: string) => (await oauth(sb.url, account, scope)).token
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}, token?: string) =>
    apiPixSend(sb.url, method, path, token ?? await fresh(), body, headers)
  t.equal((await call('PUT', `/cob/${txidOf('pedido1')}`, COB('10.00'))).status, 201)
  t.equal((await call('PUT', `/cob/${txidOf('pedido1')}`, COB('15.00'))).status, 400, 'another charge under a txid in use')
  t.equal((await call('PUT', `/cob/${txidOf('pedido2')}`, { ...COB('1'), valor: { original: 1 } })).status, 400, 'valor.original as a number')
  t.equal((await call('POST', '/cob', COB('20.00'), { 'x-sandbox-scenario': 'CONNECTION_RESET;after=commit' })).status, 0)
  t.equal((await call('POST', '/cob', COB('20.00'))).status, 201, 'the same sale created again, unlooked for')
  t.equal((await call('GET', `/cob?${DAY}&paginacao.itensPorPagina=2`)).body.parametros.paginacao.quantidadeDePaginas, 2, 'and never the second page')
  const narrow = await fresh('cob.read')
  for (let i = 0; i < 2; i++) t.equal((await call('POST', '/loc', { tipoCob: 'cob' }, {}, narrow)).status, 403)
  const kept = await fresh()
  await sb.advanceClock(31 * 60_000)
  for (let i = 0; i < 2; i++) t.equal((await call('GET', `/cob/${txidOf('pedido1')}`, undefined, {}, kept)).status, 401)
  // Pix Automático: recurrences billed whatever became of them; a failed debit's retry asked for past its window, and no other.
  const rec = async (name?: string) => {
    const idRec = (await call('POST', '/rec', REC, scenario(name))).body.idRec as string
    t.equal((await call('POST', '/solicrec', SOLICREC(idRec))).status, 201)
    return idRec
  }
  const [approved, rejected, silent] = [await rec(), await rec('REC_PAYER_PSP_REJECTS'), await rec('REC_PAYER_PSP_SILENT')]
  await sb.advanceClock(3000)
  t.equal((await call('PUT', `/cobr/${txidOf('assinatura1')}`, COBR(approved, '2026-03-20'), scenario('COBR_INSUFFICIENT_FUNDS'))).status, 201)
  const afterRejection = await call('PUT', `/cobr/${txidOf('assinatura2')}`, COBR(rejected, '2026-03-20'))
  t.equal(afterRejection.status, 400, 'a rejected recurrence billed')
  await sb.advanceClock(2 * DAY_MS)
  t.equal((await call('PUT', `/cobr/${txidOf('assinatura3')}`, COBR(silent, '2026-03-20'))).status, 400, 'an expired one billed')
  t.match(await nextDebit(sb, account.accountId), { status: 'ATIVA' }, 'no funds in the morning')
  t.match(await nextDebit(sb, account.accountId), { status: 'ATIVA' }, 'nor in the evening')
  t.equal((await call('POST', `/cobr/${txidOf('assinatura1')}/retentativa/2026-03-30`)).status, 400, 'past the 7 days')
  await sb.advanceClock(10 * DAY_MS)

  const got = byId(await sb.client.sandbox.report(account.accountId))
  for (const c of apiPixChecks) t.equal(got[c.id].status, 'failed', `${c.id}: ${got[c.id].summary}`)
  for (const id of ['token-reused', 'token-renewed', 'charge-external-id-unique']) t.equal(got[id].status, 'failed', `${id}: ${got[id].summary}`)
  t.match(got['api-pix-requests-valid'].evidence, [{ note: /^API Pix PUT \/cob\/:txid refused cob\.valor\.original: / }])
  t.match(got['scope-refusal-not-retried'].evidence, [{ note: 'API Pix POST /loc refused AcessoNegado twice with the same token' }])
  t.match(got['cob-creation-resolved'].evidence, [{ note: /^API Pix POST \/cob got no answer; the same charge was then created again by POST \/cob/ }])
  t.match(got['lists-paged-through'].evidence, [{ note: /page 0 of 2/ }])
  t.match(got['charge-external-id-unique'].evidence, [{ note: `API Pix PUT /cob/:txid with ${txidOf('pedido1')} refused COB_TXID_EXISTS` }])
  t.match(got['token-renewed'].evidence, [{ note: /expired token was sent again/ }])
  t.match(got['rejected-rec-not-charged'].evidence, [{ note: new RegExp(`^recurrence ${rejected} REJEITADA at .*; then PUT /cobr/:txid with txid ${txidOf('assinatura2')} answered 400`) }])
  t.match(got['expired-rec-not-charged'].evidence, [{ note: new RegExp(`^recurrence ${silent} EXPIRADA`) }])
  t.match(got['cobr-retry-allowed'].evidence, [{ note: /^retry of cobr assinatura1\w* refused: data: O parâmetro data não está entre/ }])
  t.match(got['cobr-retry-requested'].evidence, [{ note: /^cobr assinatura1\w* .*a retry could be asked for until 2026-03-27, none was, and the charge EXPIRADA/ }])
})
