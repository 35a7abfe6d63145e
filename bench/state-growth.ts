/**
 * What a request costs as the state grows, for API Pix's batches of due charges and Pix Automático's
 * recurrences (docs/api-pix.md, lotecobv and "The payer's side"):
 *
 *   node --expose-gc --max-old-space-size=8192 --import tsx bench/state-growth.ts [--batches 300]
 *     [--batch-size 1000] [--recurrences 10000] [--charges 12] [--steps 5000] [--reads 20]
 *     [--payments 20000] [--only lotecobv|recurrences|lists|mercado-pago]
 *
 * One sandbox in this process (its sources through tsx, logging off, the clock frozen), every request
 * through `app.inject`, one at a time. Each figure is the CPU time of this process (user + system,
 * `process.cpuUsage`) spent on the requests it names, early in the fill (the baseline, measured in the
 * same run on a small state) and at its end, and their ratio: a cost that does not grow with the state
 * stays near 1. The wall time is beside it, and the collector's pauses of the main thread during those
 * requests. Before each measured sample the heap is collected and left a second (with `--expose-gc`),
 * so that the collection of what the fill left behind, which V8 runs on other threads and this
 * process's CPU time counts, does not fall on the sample.
 *
 * - lotecobv: `--batches` batches of `--batch-size` cobvs, each `PUT /v2/lotecobv/{id}` then processed
 *   (the scheduler's job, the clock moved past the settlement delay: one cobv created per request of
 *   the batch). The PUT and the processing of batches 3 to 7 (the baseline) against the last five.
 * - recurrences: `--recurrences` recurrences (`POST /v2/rec`, approved on the control plane), each
 *   with `--charges` monthly recurring charges (`PUT /v2/cobr/{txid}`). The PUTs of the charges of
 *   recurrences 301 to 400 (the first 300 warm the code up) against the last 100's; a page of
 *   `GET /__sandbox/recurrences` (100, and the dashboard's 50 of one account) and
 *   `GET /__sandbox/recurrences/{idRec}` with 400 recurrences made against with all of them, each the
 *   median of `--reads` (20) after as many left out.
 * - lists: `--steps` steps of a second of sandbox time, each making one record of every kind a list of
 *   API Pix shows (a cob, a cobv, a batch of one, a location of each kind, a recurrence approved and
 *   its recurring charge, a PIX received, a webhook on a key of its own), opening a MED on that PIX and asking a devolução of it. The
 *   MED's opening and the devolução of steps 301 to 400 against the last 100; each list with a window
 *   of the last ten steps (`GET /v2/cob`, `/cobv`, `/lotecobv`, `/loc`, `/locrec`, `/rec`, `/cobr`,
 *   `/pix`)
 *   the dashboard's pages of the control plane's lists of API Pix (`GET /__sandbox/cobv-batches`,
 *   `/__sandbox/cobvs`, `/__sandbox/locations`, `/__sandbox/api-pix-webhooks`, each `?accountId=N&limit=50`)
 *   and the gateway's page of open MEDs (`GET /api/med?status=OPEN&pageSize=20`)
 *   after 400 steps against the end, each the median of `--reads` after as many left out.
 * - mercado-pago: `--payments` Mercado Pago payments (`POST /v1/payments`, docs/mercado-pago.md), each
 *   with its own `external_reference`, a second of sandbox time apart. The creations of payments 301 to
 *   400 against the last 100; `GET /v1/payments/search` as a client asks it by default (the newest 30),
 *   by `external_reference`, a page deep (`offset=300`), by `status` and `status_detail` (read from the
 *   lists of the charges' stages), by a payer, by the last update (a page of that date's list) and over
 *   the last 5 minutes of updates sorted by creation, after 400 payments against the end, each the
 *   median of `--reads`.
 *
 * Not part of `npm test`; bench/README.md has the figures.
 */
import { PerformanceObserver } from 'node:perf_hooks'
import { buildApp } from '../server/app.js'

const args = process.argv.slice(2)
const option = (name: string, fallback: number): number => {
  const at = args.indexOf(`--${name}`)
  return at === -1 ? fallback : Number(args[at + 1])
}
const BATCHES = option('batches', 300)
const BATCH_SIZE = option('batch-size', 1000)
const RECURRENCES = option('recurrences', 10_000)
const CHARGES = option('charges', 12)
const READS = option('reads', 20)
const STEPS = option('steps', 5000)
const PAYMENTS = option('payments', 20_000)

const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined
const SETTLE_MS = 10
/** The recurrences made before the early measures (they warm the code up), and those they measure. */
const WARM = 300
const EARLY = 100

// GET /api/med's rate limit (60 a minute of sandbox time by default) would answer the reads 429.
const app = await buildApp({ config: { seed: 'bench', logLevel: 'silent', clock: 'frozen', clockStart: '2026-03-10T15:00:00.000Z', settlementDelayMs: SETTLE_MS, medRateLimit: 100_000 } })
const account = (await app.inject({ method: 'POST', url: '/__sandbox/accounts', payload: { name: 'BENCH LTDA' } })).json()
/** A token of the account (the lists' fill moves the clock past a token's lifetime, and takes a new one). */
async function newToken (): Promise<string> {
  const oauth = await app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: {
      authorization: `Basic ${Buffer.from(`${account.clientId}:${account.clientSecret}`).toString('base64')}`,
      'x-ssl-client-cert': encodeURIComponent(account.certificate),
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: 'grant_type=client_credentials',
  })
  const token = oauth.json().access_token as string
  if (typeof token !== 'string') throw new Error(`token: ${oauth.statusCode} ${oauth.body}`)
  return token
}
let token = await newToken()
/** A token of the account for the gateway's routes (GET /api/med), taken anew with the other. */
async function newGatewayToken (): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/auth/token', headers: { 'x-ssl-client-cert': encodeURIComponent(account.certificate) }, payload: { clientId: account.clientId, clientSecret: account.clientSecret } })
  if (res.statusCode !== 201) throw new Error(`gateway token: ${res.statusCode} ${res.body}`)
  return res.json().access_token as string
}
let gatewayToken = await newGatewayToken()

/** The collector's pauses of the main thread, to tell a request's own work from a collection of a large heap that fell during it. */
const pauses: Array<{ start: number, end: number }> = []
new PerformanceObserver(list => { for (const e of list.getEntries()) pauses.push({ start: e.startTime, end: e.startTime + e.duration }) }).observe({ entryTypes: ['gc'] })
/** The collector's pauses within [from, to] (read at the end of the run, once every entry has been delivered). */
const pausedMs = (from: number, to: number): number => pauses.reduce((sum, p) => sum + Math.max(0, Math.min(p.end, to) - Math.max(p.start, from)), 0)

/** The heap collected and a second for V8 to finish sweeping on its threads, when node runs with --expose-gc. */
async function settle (): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc
  if (gc === undefined) return
  gc()
  await new Promise(resolve => setTimeout(resolve, 1000))
}

/** A step with no HTTP request (a scheduled job), timed as a request is. */
async function timedStep (step: () => Promise<void>) {
  const cpu = process.cpuUsage()
  const t0 = performance.now()
  await step()
  const t1 = performance.now()
  const used = process.cpuUsage(cpu)
  return { cpuUs: used.user + used.system, ms: t1 - t0, t0, t1 }
}

type Method = 'GET' | 'PUT' | 'POST'
/** One request, its CPU time (µs) and wall time (ms), and the size of its answer; anything but the status expected throws. */
async function timed (method: Method, url: string, payload: unknown, expected: number, control = false, bearer = token) {
  const cpu = process.cpuUsage()
  const t0 = performance.now()
  const res = await app.inject({ method, url, ...(control ? {} : { headers: { authorization: `Bearer ${bearer}` } }), ...(payload !== undefined ? { payload: payload as object } : {}) })
  const t1 = performance.now()
  const used = process.cpuUsage(cpu)
  if (res.statusCode !== expected) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 500)}`)
  return { cpuUs: used.user + used.system, ms: t1 - t0, t0, t1, bytes: res.rawPayload.length, res }
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}
/** A txid of 26 characters: a kind's prefix (a txid names one charge of the account, whatever its kind) and a number. */
const txid = (prefix: 'lote' | 'cobr', n: number): string => `${prefix}${String(n).padStart(22, '0')}`

type Sample = Awaited<ReturnType<typeof timedStep>>

/**
 * A figure: the samples of the baseline (early) and of the end, each summed up the same way (the
 * median, or the mean of many), per `per` (a cobv of a batch), in µs of CPU; beside them the wall
 * time and the collector's pauses of the main thread during those requests.
 */
interface Row { figure: string, unit: string, early: Sample[], late: Sample[], summary: 'median' | 'mean', per?: number, note?: string }
const rows: Row[] = []
const fmt = (n: number): string => n >= 100 ? String(Math.round(n)) : n.toFixed(1)
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length

async function lotecobv (): Promise<void> {
  const puts: Sample[] = []
  const processing: Sample[] = []
  const started = performance.now()
  for (let b = 1; b <= BATCHES; b++) {
    const cobsv = Array.from({ length: BATCH_SIZE }, (_, i) => ({
      txid: txid('lote', b * 100_000 + i),
      calendario: { dataDeVencimento: '2026-04-20' },
      devedor: { cpf: '52998224725', nome: 'MARIA PAGADORA' },
      valor: { original: '10.00' },
      chave: 'recebedor@example.com',
    }))
    const measured = (b >= 3 && b <= 7) || b > BATCHES - 5
    if (measured) await settle()
    puts.push(await timed('PUT', `/v2/lotecobv/${b}`, { descricao: `lote ${b}`, cobsv }, 202))
    if (measured) await settle()
    // The job alone: the clock route's answer would add the clock's own view to what is measured.
    processing.push(await timedStep(() => app.sandbox.scheduler.advance(SETTLE_MS)))
    if (b % 25 === 0) console.error(`lotecobv: ${b} batches, ${b * BATCH_SIZE} cobvs, ${Math.round((performance.now() - started) / 1000)} s`)
  }
  const check = await timed('GET', `/v2/lotecobv/${BATCHES}`, undefined, 200)
  const created = (check.res.json().cobsv as Array<{ status: string }>).filter(i => i.status === 'CRIADA').length
  if (created !== BATCH_SIZE) throw new Error(`the last batch created ${created} of ${BATCH_SIZE}`)
  // Batches 1 and 2 warm the code up.
  rows.push({ figure: `PUT /v2/lotecobv/{id} of ${BATCH_SIZE} requests: batches 3-7 against ${BATCHES - 4}-${BATCHES} (${BATCHES * BATCH_SIZE} cobvs made)`, unit: 'µs of CPU per PUT (median of 5)', early: puts.slice(2, 7), late: puts.slice(-5), summary: 'median' })
  rows.push({ figure: 'its processing (a cobv created per request of the batch), the same batches', unit: 'µs of CPU per cobv (median of 5 batches)', early: processing.slice(2, 7), late: processing.slice(-5), summary: 'median', per: BATCH_SIZE, note: 'a batch' })
}

/** A monthly recurrence of a year (`POST /v2/rec`), approved on the control plane: its idRec. */
async function approvedRecurrence (contrato: string): Promise<string> {
  const rec = await timed('POST', '/v2/rec', {
    vinculo: { contrato, devedor: { cpf: '52998224725', nome: 'MARIA PAGADORA' } },
    calendario: { dataInicial: '2026-03-20', dataFinal: '2027-03-20', periodicidade: 'MENSAL' },
    valor: { valorRec: '49.90' },
    politicaRetentativa: 'PERMITE_3R_7D',
  }, 201)
  const idRec = rec.res.json().idRec as string
  await timed('POST', `/__sandbox/recurrences/${idRec}/approve`, {}, 200, true)
  return idRec
}

async function recurrences (): Promise<void> {
  const cobrPuts: Sample[] = []
  const reads = async () => {
    const some = (await timed('GET', '/__sandbox/recurrences?limit=1', undefined, 200, true)).res.json().recurrences[0].idRec as string
    const page: Array<Sample & { bytes: number }> = []
    const dashboard: typeof page = []
    const one: typeof page = []
    await settle()
    for (let i = 0; i < READS * 2; i++) {
      page.push(await timed('GET', '/__sandbox/recurrences?limit=100', undefined, 200, true))
      dashboard.push(await timed('GET', `/__sandbox/recurrences?accountId=${account.accountId}&limit=50`, undefined, 200, true))
      one.push(await timed('GET', `/__sandbox/recurrences/${some}`, undefined, 200, true))
    }
    // The first half warms up what the second measures.
    return { page: page.slice(READS), dashboard: dashboard.slice(READS), one: one.slice(READS) }
  }
  let early: Awaited<ReturnType<typeof reads>> | undefined
  const started = performance.now()
  for (let r = 1; r <= RECURRENCES; r++) {
    const idRec = await approvedRecurrence(`BENCH-${r}`)
    // The windows of PUTs measured start on a settled heap.
    if (r === WARM + 1 || r === RECURRENCES - EARLY + 1) await settle()
    for (let c = 0; c < CHARGES; c++) {
      const month = 2 + c
      const due = `${2026 + Math.floor(month / 12)}-${String(month % 12 + 1).padStart(2, '0')}-20`
      cobrPuts.push(await timed('PUT', `/v2/cobr/${txid('cobr', r * 100 + c)}`, {
        idRec,
        calendario: { dataDeVencimento: due },
        valor: { original: '49.90' },
        ajusteDiaUtil: true,
        recebedor: { conta: '012682', tipoConta: 'CORRENTE', agencia: '9708' },
      }, 201))
    }
    if (r === WARM + EARLY) early = await reads()
    if (r % 1000 === 0) console.error(`recurrences: ${r}, ${r * CHARGES} charges, ${Math.round((performance.now() - started) / 1000)} s`)
  }
  if (early === undefined) throw new Error(`fewer than ${WARM + EARLY} recurrences`)
  const late = await reads()
  rows.push({
    figure: `PUT /v2/cobr/{txid}: the charges of recurrences ${WARM + 1}-${WARM + EARLY} against the last ${EARLY}'s (${RECURRENCES * CHARGES} charges of ${RECURRENCES} recurrences)`,
    unit: `µs of CPU per PUT (mean of ${EARLY * CHARGES})`,
    early: cobrPuts.slice(WARM * CHARGES, (WARM + EARLY) * CHARGES),
    late: cobrPuts.slice(-EARLY * CHARGES),
    summary: 'mean',
  })
  const state = `${WARM + EARLY} recurrences (${(WARM + EARLY) * CHARGES} charges) against ${RECURRENCES} (${RECURRENCES * CHARGES})`
  for (const [figure, key] of [
    [`GET /__sandbox/recurrences?limit=100, a page: ${state}`, 'page'],
    [`GET /__sandbox/recurrences?accountId=N&limit=50, the dashboard's page: ${state}`, 'dashboard'],
    [`GET /__sandbox/recurrences/{idRec}, one with its ${CHARGES} charges: ${state}`, 'one'],
  ] as const) {
    const kb = (xs: Array<{ bytes: number }>) => Math.round(median(xs.map(x => x.bytes)) / 1024)
    rows.push({ figure, unit: `µs of CPU per GET (median of ${READS})`, early: early[key], late: late[key], summary: 'median', note: `${kb(early[key])} and ${kb(late[key])} KB answered` })
  }
}

async function lists (): Promise<void> {
  const opened: Sample[] = []
  const devolucoes: Sample[] = []
  const LISTS = ['cob', 'cobv', 'lotecobv', 'loc', 'locrec', 'rec', 'cobr', 'pix'] as const
  /** The control plane's lists the dashboard pages, each as the dashboard asks for its first page. */
  const PAGES = ['cobv-batches', 'cobvs', 'locations', 'api-pix-webhooks'] as const
  const { document, ispb } = (await app.inject({ method: 'GET', url: `/__sandbox/accounts/${account.accountId}` })).json()
  const reads = async () => {
    const now = app.sandbox.clock.now()
    const window = `inicio=${new Date(now - 10_000).toISOString()}&fim=${new Date(now).toISOString()}`
    const samples = Object.fromEntries([...LISTS, ...PAGES, 'med'].map(k => [k, [] as Sample[]]))
    await settle()
    for (let i = 0; i < READS * 2; i++) {
      for (const list of LISTS) samples[list].push(await timed('GET', `/v2/${list}?${window}`, undefined, 200))
      for (const list of PAGES) samples[list].push(await timed('GET', `/__sandbox/${list}?accountId=${account.accountId}&limit=50`, undefined, 200, true))
      samples.med.push(await timed('GET', '/api/med?status=OPEN&pageSize=20', undefined, 200, false, gatewayToken))
    }
    // The first half warms up what the second measures.
    return Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, xs.slice(READS)]))
  }
  let early: Awaited<ReturnType<typeof reads>> | undefined
  const started = performance.now()
  const due = { calendario: { dataDeVencimento: '2026-04-20' }, devedor: { cpf: '52998224725', nome: 'MARIA PAGADORA' }, valor: { original: '10.00' }, chave: 'recebedor@example.com' }
  for (let n = 1; n <= STEPS; n++) {
    await timed('PUT', `/v2/cob/${txid('cobr', 3 * n)}`, { calendario: { expiracao: 86_400 }, valor: { original: '10.00' }, chave: 'recebedor@example.com' }, 201)
    await timed('PUT', `/v2/cobv/${txid('lote', 2 * n)}`, due, 201)
    await timed('PUT', `/v2/lotecobv/${n}`, { descricao: `lote ${n}`, cobsv: [{ txid: txid('lote', 2 * n + 1), ...due }] }, 202)
    await timed('POST', '/v2/loc', { tipoCob: 'cob' }, 201)
    await timed('POST', '/v2/locrec', undefined, 201)
    const idRec = await approvedRecurrence(`LISTS-${n}`)
    await timed('PUT', `/v2/cobr/${txid('cobr', 3 * n + 1)}`, { idRec, calendario: { dataDeVencimento: '2026-03-20' }, valor: { original: '49.90' }, ajusteDiaUtil: true, recebedor: { conta: '012682', tipoConta: 'CORRENTE', agencia: '9708' } }, 201)
    // A key of the account's (its document, its institution) and the webhook of it: a plain http receiver, checked by no TLS.
    await timed('PUT', `/__sandbox/directory/hook${n}@example.com`, { name: 'BENCH LTDA', document, ispb, bankName: 'SANDBOX' }, 201, true)
    await timed('PUT', `/v2/webhook/hook${n}@example.com`, { webhookUrl: 'http://127.0.0.1:9/hook' }, 200)
    const pix = (await timed('POST', '/__sandbox/pix/incoming', { accountId: account.accountId, amount: 20 }, 201, true)).res.json()
    if (n === WARM + 1 || n === STEPS - EARLY + 1) await settle()
    opened.push(await timed('POST', '/__sandbox/med', { endToEndId: pix.endToEndId, reason: 'REFUND_REQUEST' }, 201, true))
    devolucoes.push(await timed('PUT', `/v2/pix/${pix.endToEndId}/devolucao/d${n}`, { valor: '1.00' }, 201))
    await app.sandbox.scheduler.advance(1000)
    if (n === WARM + EARLY) early = await reads()
    if (n % 1000 === 0) {
      console.error(`lists: ${n} steps, ${Math.round((performance.now() - started) / 1000)} s`)
      token = await newToken()
      gatewayToken = await newGatewayToken()
    }
  }
  if (early === undefined) throw new Error(`fewer than ${WARM + EARLY} steps`)
  const late = await reads()
  const state = `${WARM + EARLY} steps against ${STEPS}`
  for (const [figure, samples] of [[`POST /__sandbox/med, a MED opened on a PIX just received: steps ${WARM + 1}-${WARM + EARLY} against the last ${EARLY}`, opened], ['PUT /v2/pix/{e2eid}/devolucao/{id} of that PIX, the same steps', devolucoes]] as const) {
    rows.push({ figure, unit: `µs of CPU per request (mean of ${EARLY})`, early: samples.slice(WARM, WARM + EARLY), late: samples.slice(-EARLY), summary: 'mean' })
  }
  for (const list of LISTS) rows.push({ figure: `GET /v2/${list}, a window of the last 10 steps: ${state}`, unit: `µs of CPU per GET (median of ${READS})`, early: early[list], late: late[list], summary: 'median' })
  for (const list of PAGES) rows.push({ figure: `GET /__sandbox/${list}?accountId=N&limit=50, the dashboard's page: ${state}`, unit: `µs of CPU per GET (median of ${READS})`, early: early[list], late: late[list], summary: 'median' })
  rows.push({ figure: `GET /api/med?status=OPEN&pageSize=20, the newest open MEDs: ${state}`, unit: `µs of CPU per GET (median of ${READS})`, early: early.med, late: late.med, summary: 'median' })
}

async function mercadoPago (): Promise<void> {
  const mpToken = account.mercadoPago.accessToken as string
  /** One request with the account's Mercado Pago token, timed as `timed` does. */
  const timedMp = async (method: Method, url: string, payload: unknown, expected: number, key?: string) => {
    const cpu = process.cpuUsage()
    const t0 = performance.now()
    const res = await app.inject({ method, url, headers: { authorization: `Bearer ${mpToken}`, ...(key !== undefined ? { 'x-idempotency-key': key } : {}) }, ...(payload !== undefined ? { payload: payload as object } : {}) })
    const t1 = performance.now()
    const used = process.cpuUsage(cpu)
    if (res.statusCode !== expected) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 500)}`)
    return { cpuUs: used.user + used.system, ms: t1 - t0, t0, t1, bytes: res.rawPayload.length, res }
  }
  const created: Sample[] = []
  const SEARCHES = { newest: '', reference: 'external_reference=order-42', deep: 'offset=300&limit=30', status: 'status=pending&limit=30', detail: 'status_detail=pending_waiting_transfer&limit=30', payer: 'payer.email=few@example.com', updated: 'range=date_last_updated&sort=date_last_updated&limit=30', recent: 'range=date_last_updated&begin_date=NOW-5MINUTES' } as const
  const reads = async () => {
    const samples = Object.fromEntries(Object.keys(SEARCHES).map(k => [k, [] as Sample[]]))
    await settle()
    for (let i = 0; i < READS * 2; i++) {
      for (const [k, q] of Object.entries(SEARCHES)) samples[k].push(await timedMp('GET', `/v1/payments/search?${q}`, undefined, 200))
    }
    return Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, xs.slice(READS)]))
  }
  let early: Awaited<ReturnType<typeof reads>> | undefined
  const started = performance.now()
  for (let n = 1; n <= PAYMENTS; n++) {
    if (n === WARM + 1 || n === PAYMENTS - EARLY + 1) await settle()
    created.push(await timedMp('POST', '/v1/payments', { transaction_amount: 10, payment_method_id: 'pix', external_reference: `order-${n}`, payer: { email: n <= 20 ? 'few@example.com' : 'p@example.com' } }, 201, `bench-${n}`))
    await app.sandbox.scheduler.advance(1000)
    if (n === WARM + EARLY) early = await reads()
    if (n % 5000 === 0) console.error(`mercado-pago: ${n} payments, ${Math.round((performance.now() - started) / 1000)} s`)
  }
  if (early === undefined) throw new Error(`fewer than ${WARM + EARLY} payments`)
  const late = await reads()
  const state = `${WARM + EARLY} payments against ${PAYMENTS}`
  rows.push({ figure: `POST /v1/payments: payments ${WARM + 1}-${WARM + EARLY} against the last ${EARLY} (${PAYMENTS} payments)`, unit: `µs of CPU per POST (mean of ${EARLY})`, early: created.slice(WARM, WARM + EARLY), late: created.slice(-EARLY), summary: 'mean' })
  for (const [figure, key] of [
    [`GET /v1/payments/search, the default (the newest 30): ${state}`, 'newest'],
    [`GET /v1/payments/search?external_reference=order-42: ${state}`, 'reference'],
    [`GET /v1/payments/search?offset=300&limit=30, a page deep: ${state}`, 'deep'],
    [`GET /v1/payments/search?status=pending&limit=30, read from the lists of its stages: ${state}`, 'status'],
    [`GET /v1/payments/search?status_detail=pending_waiting_transfer&limit=30, the same: ${state}`, 'detail'],
    [`GET /v1/payments/search?payer.email=few@example.com, a payer of the first 20 payments: ${state}`, 'payer'],
    [`GET /v1/payments/search?range=date_last_updated&sort=date_last_updated&limit=30, the last updated: ${state}`, 'updated'],
    [`GET /v1/payments/search?range=date_last_updated&begin_date=NOW-5MINUTES, the 300 updated in the last 5 minutes by creation: ${state}`, 'recent'],
  ] as const) rows.push({ figure, unit: `µs of CPU per GET (median of ${READS})`, early: early[key], late: late[key], summary: 'median' })
}

if (only === undefined || only === 'lotecobv') await lotecobv()
if (only === undefined || only === 'recurrences') await recurrences()
if (only === undefined || only === 'lists') await lists()
if (only === undefined || only === 'mercado-pago') await mercadoPago()
await app.close()
// The collector's last entries are delivered after the requests that saw them.
await new Promise(resolve => setTimeout(resolve, 100))

console.log('| Figure | Unit | Early (baseline) | Late | Late / early | Wall, early and late (ms) | Collector pauses, early and late (ms) |')
console.log('|---|---|---|---|---|---|---|')
for (const r of rows) {
  const sum = r.summary === 'median' ? median : mean
  const cpu = (xs: Sample[]) => sum(xs.map(x => x.cpuUs)) / (r.per ?? 1)
  const wall = (xs: Sample[]) => sum(xs.map(x => x.ms))
  const paused = (xs: Sample[]) => sum(xs.map(x => pausedMs(x.t0, x.t1)))
  const [early, late] = [cpu(r.early), cpu(r.late)]
  console.log(`| ${r.figure} | ${r.unit} | ${fmt(early)} | ${fmt(late)} | ${(late / early).toFixed(2)} | ${fmt(wall(r.early))} and ${fmt(wall(r.late))}${r.note !== undefined ? ` (${r.note})` : ''} | ${paused(r.early).toFixed(1)} and ${paused(r.late).toFixed(1)} |`)
}
