import t from 'tap'
import { advance, balanceOf, bearer, buildTestApp, newAccount } from '../helpers/app.js'
import { oauthToken } from '../helpers/api-pix.js'
import { payCode } from '../helpers/payins.js'
import { control } from '../helpers/rec.js'
import { startReceiver } from '../helpers/receiver.js'

/**
 * A year of Pix Automático in seconds (docs/api-pix.md, Pix Automático and "Recurring charges"): five
 * monthly subscriptions, one approved by each journey (1: its confirmation request, solicrec; 2: its
 * location's payload, locrec; 3: the composite code of an immediate charge, paid by another account's
 * cash-out by QR code; 4: the composite code of a due charge, and the static code of the contract, each
 * paid at /__sandbox/pix/pay), the payments of journeys 3 and 4 credited; then twelve months, each
 * subscription's charge debited when `clock next-due` moves the virtual clock to it, two failing for lack
 * of funds (one by the charge's scenario, one by its payer's behaviour) and paid on their retry; each month
 * the statuses, the receiver's ledger and the PIX it received; at the end what a real receiver got on
 * /webhookrec, /webhookcobr and /webhook/{chave}.
 */

const DOCUMENT = '11222333000181'
const KEY = 'assinaturas@streaming.example.com'
const MONTHS = ['2026-04', '2026-05', '2026-06', '2026-07', '2026-08', '2026-09', '2026-10', '2026-11', '2026-12', '2027-01', '2027-02', '2027-03']

type Activation = 'solicrec' | 'locrec' | 'cob' | 'cobv' | 'static'
interface Subscription {
  /** How its payer approves it, and the name its charges' txids start with. */
  activation: Activation
  tipoJornada: 'JORNADA_1' | 'JORNADA_2' | 'JORNADA_3' | 'JORNADA_4'
  devedor: { cpf: string, nome: string }
  valor: string
  /** The month whose debit fails for lack of funds, and who says so (the charge's scenario, or the payer's behaviour); paid on its retry. */
  fails?: { month: string, by: 'scenario' | 'payer' }
}
const SUBSCRIPTIONS: Subscription[] = [
  { activation: 'solicrec', tipoJornada: 'JORNADA_1', devedor: { cpf: '52998224725', nome: 'MARIA PAGADORA' }, valor: '49.90' },
  { activation: 'locrec', tipoJornada: 'JORNADA_2', devedor: { cpf: '45164632481', nome: 'FULANO DE TAL' }, valor: '29.90' },
  { activation: 'cob', tipoJornada: 'JORNADA_3', devedor: { cpf: '65162559202', nome: 'ANA PEREIRA' }, valor: '19.90', fails: { month: '2026-09', by: 'scenario' } },
  { activation: 'cobv', tipoJornada: 'JORNADA_4', devedor: { cpf: '03742693433', nome: 'JOAO SOUZA' }, valor: '39.90' },
  { activation: 'static', tipoJornada: 'JORNADA_4', devedor: { cpf: '11144477735', nome: 'BELTRANA COSTA' }, valor: '59.90', fails: { month: '2027-01', by: 'payer' } },
]

const cents = (valor: string): number => Math.round(Number(valor) * 100)
/** A txid of API Pix (26 to 35 letters and digits). */
const txidOf = (...parts: string[]): string => parts.join('').replace(/-/g, '').padEnd(30, 'x')
// 1 to 25 letters and digits: the static code of the contract carries it as its txid.
const contractOf = (s: Subscription): string => `CONTRATO${s.devedor.cpf}`
const recBody = (s: Subscription, extra: Record<string, unknown> = {}) => ({
  vinculo: { contrato: contractOf(s), devedor: s.devedor, objeto: 'Assinatura mensal' },
  calendario: { dataInicial: '2026-04-20', dataFinal: '2027-04-19', periodicidade: 'MENSAL' },
  valor: { valorRec: s.valor },
  politicaRetentativa: 'PERMITE_3R_7D',
  ...extra,
})
const cobrBody = (idRec: string, valor: string, dataDeVencimento: string) => ({
  idRec,
  calendario: { dataDeVencimento },
  valor: { original: valor },
  ajusteDiaUtil: true,
  recebedor: { conta: '012682', tipoConta: 'CORRENTE', agencia: '9708' },
})

t.test('a subscription approved by each journey, twelve months debited, two failed debits paid on their retry', async t => {
  const app = await buildTestApp(t)
  const rx = await startReceiver()
  t.teardown(() => rx.close())
  const acc = await newAccount(app, { name: 'STREAMING LTDA', document: DOCUMENT, balance: 0 })
  const { ispb } = (await app.inject({ method: 'GET', url: `/__sandbox/accounts/${acc.accountId}` })).json()
  t.equal((await app.inject({ method: 'PUT', url: `/__sandbox/directory/${KEY}`, payload: { name: 'STREAMING LTDA', document: DOCUMENT, ispb, bankName: 'SANDBOX' } })).statusCode, 201, 'the receiver holds a key')
  const payer = await newAccount(app, { balance: 1000 })
  // A token per call: the clock moves months ahead, past a token's lifetime.
  const call = async (method: 'GET' | 'PUT' | 'POST' | 'PATCH', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    app.inject({ method, url, headers: { ...bearer(await oauthToken(app, acc)), ...headers }, ...(payload !== undefined ? { payload: payload as object } : {}) })
  const recOf = async (idRec: string) => (await call('GET', `/v2/rec/${idRec}`)).json()
  const createRec = async (s: Subscription, extra: Record<string, unknown> = {}): Promise<string> => {
    const made = await call('POST', '/v2/rec', recBody(s, extra))
    t.equal(made.statusCode, 201, `${s.activation}: ${made.body}`)
    return made.json().idRec
  }
  const withLocation = async (s: Subscription, extra: Record<string, unknown> = {}) => {
    const loc = (await call('POST', '/v2/locrec')).json()
    return { idRec: await createRec(s, { loc: loc.id, ...extra }), location: loc.location as string }
  }
  /** The composite code of the recurrence and the charge `txid` (GET /rec/{idRec}?txid=). */
  const composite = async (idRec: string, txid: string, jornada: string): Promise<string> => {
    const dadosQR = (await call('GET', `/v2/rec/${idRec}?txid=${txid}`)).json().dadosQR
    t.equal(dadosQR?.jornada, jornada)
    return dadosQR.pixCopiaECola
  }
  const ledger = { cents: 0 }
  const checkLedger = async (what: string) => {
    const balance = await balanceOf(app, acc.accountId)
    t.equal(Math.round(balance.available * 100), ledger.cents, `the receiver's ledger: ${what}`)
    t.ok(balance.invariantHolds)
  }
  /** How the payer of `s` answers its debits (docs/api-pix.md, "The payer's side"). */
  const debitsOf = async (s: Subscription, debit: 'PAGA' | 'REJEITADA_SALDO') => {
    const set = await app.inject({ method: 'PUT', url: '/__sandbox/payer-behaviours', payload: { accountId: acc.accountId, document: s.devedor.cpf, authorization: 'APPROVE', debit } })
    t.equal(set.statusCode, 200, set.body)
  }
  const nextDue = async () => (await app.inject({ method: 'POST', url: '/__sandbox/clock/next-due', payload: { accountId: acc.accountId } })).json()

  // The receiver's webhooks: its charges' at {webhookUrl}/cobr, its recurrences' at {webhookUrl}/rec, the PIX on its key at {webhookUrl}/pix.
  t.equal((await call('PUT', '/v2/webhookcobr', { webhookUrl: rx.url })).statusCode, 200)
  t.equal((await call('PUT', '/v2/webhookrec', { webhookUrl: rx.url })).statusCode, 200)
  t.equal((await call('PUT', `/v2/webhook/${KEY}`, { webhookUrl: rx.url })).statusCode, 200)

  /** Each journey: the recurrence created and approved by its payer; what the payer paid on approving, when anything. */
  const activate: Record<Activation, (s: Subscription) => Promise<{ idRec: string, paid?: string }>> = {
    // Journey 1: the receiver asks the payer's PSP for a confirmation; the payer accepts it.
    solicrec: async s => {
      const idRec = await createRec(s)
      const solicited = await call('POST', '/v2/solicrec', { idRec, calendario: { dataExpiracaoSolicitacao: '2026-03-20T15:00:00Z' }, destinatario: { conta: '1', cpf: s.devedor.cpf, ispbParticipante: '91193552' } })
      t.equal(solicited.statusCode, 201, solicited.body)
      await advance(app, 5000)
      t.match((await call('GET', `/v2/solicrec/${solicited.json().idSolicRec}`)).json(), { status: 'ACEITA' })
      t.match(await recOf(idRec), { pagador: { ispbParticipante: '91193552' } })
      return { idRec }
    },
    // Journey 2: the recurrence served at a location; the payer's PSP reads its payload and the payer approves it.
    locrec: async s => {
      const { idRec, location } = await withLocation(s)
      const payload = await app.inject({ method: 'GET', url: location.slice(location.indexOf('/')) })
      t.equal(payload.statusCode, 200, payload.body)
      t.equal(payload.headers['content-type'], 'application/jose')
      t.equal((await control(app, `/__sandbox/recurrences/${idRec}/approve`, { jornada: 'JORNADA_2' })).statusCode, 200)
      return { idRec }
    },
    // Journey 3: the receiver's immediate charge composed with the recurrence, paid by another account's cash-out by QR code.
    cob: async s => {
      const txid = txidOf('adesao', s.activation)
      t.equal((await call('PUT', `/v2/cob/${txid}`, { calendario: { expiracao: 3600 }, valor: { original: s.valor }, chave: KEY })).statusCode, 201)
      const { idRec } = await withLocation(s, { ativacao: { dadosJornada: { txid } } })
      const qrCode = await composite(idRec, txid, 'JORNADA_3')
      const out = await app.inject({ method: 'POST', url: '/api/pix/cash-out-qrcode', headers: bearer(payer.token), payload: { value: Number(s.valor), qrCode, externalId: `adesao-${s.activation}` } })
      t.equal(out.statusCode, 201, out.body)
      await advance(app, 1000)
      t.match((await call('GET', `/v2/cob/${txid}`)).json(), { status: 'CONCLUIDA', pix: [{ valor: s.valor }] })
      t.match(await recOf(idRec), { ativacao: { dadosJornada: { txid } }, pagador: { ispbParticipante: app.sandbox.store.account(payer.accountId)!.ispb } })
      return { idRec, paid: txid }
    },
    // Journey 4: the receiver's due charge composed with the recurrence, paid before its due date.
    cobv: async s => {
      const txid = txidOf('adesao', s.activation)
      const cobv = await call('PUT', `/v2/cobv/${txid}`, { calendario: { dataDeVencimento: '2026-03-12' }, devedor: s.devedor, valor: { original: s.valor }, chave: KEY })
      t.equal(cobv.statusCode, 201, cobv.body)
      const { idRec } = await withLocation(s)
      t.equal((await payCode(app, await composite(idRec, txid, 'JORNADA_4'))).statusCode, 201)
      t.match((await call('GET', `/v2/cobv/${txid}`)).json(), { status: 'CONCLUIDA', pix: [{ valor: s.valor }] })
      return { idRec, paid: txid }
    },
    // Journey 4's other form: the static code of the contract, to the receiver's key, paid.
    static: async s => {
      const { idRec } = await withLocation(s)
      const code = await control(app, `/__sandbox/recurrences/${idRec}/static-code`, { chave: KEY, valor: s.valor })
      t.equal(code.statusCode, 200, code.body)
      t.equal(code.json().jornada, 'JORNADA_4')
      t.equal((await payCode(app, code.json().pixCopiaECola)).statusCode, 201)
      t.notOk('dadosJornada' in (await recOf(idRec)).ativacao, 'the static code names no charge')
      return { idRec, paid: contractOf(s) }
    },
  }

  const idRecs = new Map<Subscription, string>()
  /** The payments on approving (journeys 3 and 4), as the receiver sees a PIX: its txid, value and key. */
  const adesoes: string[] = []
  const seen = (pix: { txid: string, valor: string, chave: string }) => `${pix.txid} ${pix.valor} ${pix.chave}`
  for (const s of SUBSCRIPTIONS) {
    const { idRec, paid } = await activate[s.activation](s)
    idRecs.set(s, idRec)
    t.match(await recOf(idRec), { status: 'APROVADA', ativacao: { tipoJornada: s.tipoJornada }, pagador: { cpf: s.devedor.cpf } }, `${s.activation}: APROVADA by ${s.tipoJornada}`)
    if (paid !== undefined) {
      adesoes.push(seen({ txid: paid, valor: s.valor, chave: KEY }))
      ledger.cents += cents(s.valor)
    }
    await checkLedger(`${s.activation} approved`)
  }
  const onApproval = (await call('GET', '/v2/pix?inicio=2026-03-10T00:00:00Z&fim=2026-03-11T00:00:00Z')).json().pix
  t.same(onApproval.map(seen), adesoes, 'the payments of journeys 3 and 4 received on the key')

  // Twelve months: each subscription's charge created a month ahead, then debited on its date.
  for (const month of MONTHS) {
    const debits = SUBSCRIPTIONS.map(s => ({ s, txid: txidOf(s.activation, month), fails: s.fails?.month === month ? s.fails.by : undefined }))
    for (const { s, txid, fails } of debits) {
      const scenario: Record<string, string> = fails === 'scenario' ? { 'x-sandbox-scenario': 'COBR_INSUFFICIENT_FUNDS' } : {}
      if (fails === 'payer') await debitsOf(s, 'REJEITADA_SALDO')
      const created = await call('PUT', `/v2/cobr/${txid}`, cobrBody(idRecs.get(s)!, s.valor, `${month}-20`), scenario)
      t.equal(created.statusCode, 201, `${month} ${s.activation}: ${created.body}`)
    }
    // Every subscription's charge falls due on the same date: one move of the clock debits them all.
    const due = await nextDue()
    t.ok(debits.some(d => d.txid === due.debit?.txid), `${month}: the next debit is one of the month's`)
    // A debit without funds at 08:00 is tried again at 18:00 the same day: the next move runs it.
    const failing = debits.filter(d => d.fails !== undefined)
    if (failing.length > 0) {
      t.match((await call('GET', `/v2/cobr/${failing[0].txid}`)).json(), { status: 'ATIVA', tentativas: [{ status: 'AGENDADA' }] }, `${month}: no funds in the morning, the evening to come`)
      t.match((await nextDue()).debit, { txid: failing[0].txid, at: due.debit.at.replace('T11:', 'T21:'), status: 'ATIVA' }, `${month}: the evening attempt`)
    }
    for (const { s, txid, fails } of debits) {
      const cobr = (await call('GET', `/v2/cobr/${txid}`)).json()
      if (fails !== undefined) {
        t.match(cobr, { status: 'ATIVA', tentativas: [{ status: 'EXPIRADA' }] }, `${month} ${s.activation}: no funds (${fails}), waiting for a retry`)
      } else {
        t.match(cobr, { status: 'CONCLUIDA', tentativas: [{ status: 'PAGA' }], pix: [{ valor: s.valor }] }, `${month} ${s.activation}: paid on its date`)
        ledger.cents += cents(s.valor)
      }
    }
    await checkLedger(`${month}, the debits on their date`)
    for (const { s, txid, fails } of debits.filter(d => d.fails !== undefined)) {
      if (fails === 'payer') await debitsOf(s, 'PAGA')
      const retryDate = new Date(Date.parse(due.debit.at) + 2 * 86_400_000).toISOString().slice(0, 10)
      const retry = await call('POST', `/v2/cobr/${txid}/retentativa/${retryDate}`)
      t.equal(retry.statusCode, 201, retry.body)
      t.match(retry.json(), { status: 'ATIVA', tentativas: [{ status: 'EXPIRADA' }, { tipo: 'NTAG', status: 'AGENDADA', dataLiquidacao: retryDate }] })
      t.match((await nextDue()).debit, { txid, status: 'CONCLUIDA' }, `${month} ${s.activation}: paid on the retry`)
      t.match((await call('GET', `/v2/cobr/${txid}`)).json(), { status: 'CONCLUIDA', tentativas: [{ status: 'EXPIRADA' }, { status: 'PAGA' }] })
      ledger.cents += cents(s.valor)
      await checkLedger(`${month}, the retry`)
    }
    const pix = (await call('GET', `/v2/pix?inicio=${month}-01T00:00:00Z&fim=${month}-28T23:59:59Z`)).json().pix
    // A recurring charge names no key: its PIX shows the account's document (docs/api-pix.md, pix), which has no webhook here.
    t.same(pix.map(seen).sort(), debits.map(d => seen({ txid: d.txid, valor: d.s.valor, chave: DOCUMENT })).sort(), `${month}: a PIX received for each charge`)
  }
  for (const s of SUBSCRIPTIONS) {
    const list = (await call('GET', `/v2/cobr?inicio=2026-03-01T00:00:00Z&fim=2027-04-01T00:00:00Z&idRec=${idRecs.get(s)}`)).json()
    t.same(list.cobsr.map((c: { status: string }) => c.status), MONTHS.map(() => 'CONCLUIDA'), `${s.activation}: twelve charges paid`)
    t.match(await recOf(idRecs.get(s)!), { status: 'APROVADA' }, `${s.activation}: still in force after a year`)
  }

  // What the receiver's webhooks received: each recurrence's changes, each charge's, each PIX on its key.
  await app.sandbox.webhooks.idle()
  // In the order the sandbox made the deliveries (the log's seq, by X-Sandbox-Delivery-Id): concurrent deliveries may arrive out of it.
  const log = (await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries?accountId=${acc.accountId}&limit=1000` })).json().deliveries as Array<{ id: string, seq: number, url: string | null }>
  const sent = log.filter(d => d.url !== null) // the gateway's own events (cash_in) have no receiver here
  const seqOf = new Map(sent.map(d => [d.id, d.seq]))
  const made = (r: { headers: Record<string, unknown> }) => seqOf.get(String(r.headers['x-sandbox-delivery-id'])) ?? -1
  t.same(rx.requests.map(made).filter(seq => seq < 0), [], 'every request received is a delivery of the log')
  t.equal(rx.requests.length, sent.length, 'each delivery received once')
  const delivered = [...rx.requests].sort((a, b) => made(a) - made(b))
  const told = (path: string) => delivered.filter(r => r.path.endsWith(path)).map(r => r.json())
  const recs = told('/rec').map(b => b.recs[0] as { idRec: string, status: string, ativacao: { tipoJornada: string } })
  const cobrs = told('/cobr').map(b => b.cobsr[0] as { txid: string, status: string })
  for (const s of SUBSCRIPTIONS) {
    const changes = recs.filter(r => r.idRec === idRecs.get(s))
    t.same(changes.map(r => r.status), ['CRIADA', 'APROVADA'], `${s.activation}: /webhookrec told`)
    t.equal(changes[1]?.ativacao.tipoJornada, s.tipoJornada)
    for (const month of MONTHS) {
      const txid = txidOf(s.activation, month)
      // A failed debit: the attempt's end, then the retry asked for, each a change of the charge.
      const expected = s.fails?.month === month ? ['ATIVA', 'ATIVA', 'ATIVA', 'CONCLUIDA'] : ['ATIVA', 'CONCLUIDA']
      t.same(cobrs.filter(c => c.txid === txid).map(c => c.status), expected, `${txid}: /webhookcobr told`)
    }
  }
  t.same(told('/pix').map(b => seen(b.pix[0])), adesoes, '/webhook/{chave} told of the payments of journeys 3 and 4, not of the recurring charges')
})
