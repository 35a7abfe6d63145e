import t from 'tap'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import type { Test } from 'tap'
import { advance, bearer, newAccount } from '../helpers/app.js'
import { apiPixClient, checkAnswer, oauthToken, PROBLEM_TYPE } from '../helpers/api-pix.js'
import { aTxid } from '../helpers/payins.js'
import { cobrApp } from '../helpers/recurrences.js'
import { txid as drawTxid } from '../../server/domain/ids.js'

/**
 * A txid names one charge of its receiver, whatever its kind (docs/api-pix.md, "One txid, one
 * charge"; BACEN's YAML: the txid "é único por CPF/CNPJ do usuário recebedor"): a cob (API Pix's or
 * the gateway's), a cobv, a batch's cobv and a cobr each refuse a txid another kind of the same
 * account holds, in their family's words, and change nothing; concurrent creations of one txid make
 * one charge; a snapshot with two charges of one txid in one account is refused.
 */

type Kind = 'cob' | 'cobv' | 'cobr' | 'root cob'
const KINDS: readonly Kind[] = ['cob', 'cobv', 'cobr', 'root cob']

const cobBody = { calendario: { expiracao: 3600 }, valor: { original: '10.00' }, chave: 'recebedor@example.com' }
const cobvBody = { calendario: { dataDeVencimento: '2026-03-20' }, devedor: { cpf: '52998224725', nome: 'MARIA' }, valor: { original: '100.00' }, chave: 'recebedor@example.com' }
const rootCobBody = { calendario: { expiracao: 3600 }, valor: { original: '10.00' } }

/** How each kind refuses a txid in use: its status, and on API Pix its problem type and the property its violation names. */
const REFUSAL: Record<Kind, { status: number, type?: string, propriedade?: string }> = {
  cob: { status: 400, type: 'CobOperacaoInvalida', propriedade: 'cob.txid' },
  cobv: { status: 400, type: 'CobVOperacaoInvalida', propriedade: 'cobv.txid' },
  cobr: { status: 400, type: 'CobROperacaoInvalida', propriedade: 'cobr.txid' },
  'root cob': { status: 409 },
}

/** An app with an account, an approved recurrence, one token for each dialect, and a creation of each kind. */
async function setup (t: Test) {
  const { app, acc, body } = await cobrApp(t)
  // One token for the whole test: the clock stays frozen, and a token per call would be a change of its own.
  const call = apiPixClient(app, await oauthToken(app, acc))
  // A recurrence takes one live charge per cycle (a month): each cobr is due in a month of its own.
  let cycle = 0
  const nextDue = (): string => {
    const month = 2 + ++cycle
    return `${2026 + Math.floor((month - 1) / 12)}-${String((month - 1) % 12 + 1).padStart(2, '0')}-20`
  }
  const create = (kind: Kind, txid: string): Promise<LightMyRequestResponse> => {
    switch (kind) {
      case 'cob': return call('PUT', `/v2/cob/${txid}`, cobBody)
      case 'cobv': return call('PUT', `/v2/cobv/${txid}`, cobvBody)
      case 'cobr': return call('PUT', `/v2/cobr/${txid}`, body({ calendario: { dataDeVencimento: nextDue() } }))
      case 'root cob': return app.inject({ method: 'PUT', url: `/cob/${txid}`, headers: bearer(acc.token), payload: rootCobBody })
    }
  }
  const read = (kind: Kind, txid: string): Promise<LightMyRequestResponse> =>
    kind === 'root cob' ? app.inject({ method: 'GET', url: `/cob/${txid}`, headers: bearer(acc.token) }) : call('GET', `/v2/${kind}/${txid}`)
  return { app, acc, call, create, read, body }
}

const snapshotOf = async (app: FastifyInstance) => (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()

/** How many charges of the account a txid names in a snapshot: cobs and cobvs (transactions) and cobrs. */
function chargesOfTxid (snapshot: { transactions: Record<string, any>, cobrs: Record<string, any> }, accountId: number, txid: string): number {
  const txs = Object.values(snapshot.transactions).filter(tx => (tx.kind === 'COB' || tx.kind === 'COBV') && tx.accountId === accountId && tx.data.txid === txid)
  return txs.length + Object.values(snapshot.cobrs).filter(c => c.accountId === accountId && c.txid === txid).length
}

t.test('each kind refuses a txid another charge of the account holds, in its family\'s words, and changes nothing', async t => {
  const { app, acc, create, read } = await setup(t)
  let n = 0
  for (const first of KINDS) {
    for (const second of KINDS) {
      // A PUT on a cobv's own txid revises it (API Pix's PUT /cobv on an ATIVA one): no conflict.
      if (first === 'cobv' && second === 'cobv') continue
      const txid = aTxid(++n)
      const made = await create(first, txid)
      t.equal(made.statusCode, 201, `${first} ${txid}: ${made.body}`)
      const before = await snapshotOf(app)
      const refused = await create(second, txid)
      const expected = REFUSAL[second]
      t.equal(refused.statusCode, expected.status, `${second} after ${first}: ${refused.body}`)
      if (expected.type !== undefined) {
        checkAnswer(t, refused, 'PUT', `/${second}/{txid}`)
        t.equal(refused.json().type, PROBLEM_TYPE + expected.type, `${second} after ${first}`)
        t.ok(refused.json().violacoes.some((v: { propriedade?: string }) => v.propriedade === expected.propriedade), `${second} after ${first}: ${expected.propriedade} in use`)
      } else {
        t.match(refused.json(), { statusCode: 409, message: /txid/ }, `${second} after ${first}: the gateway's own shape`)
      }
      t.same(await snapshotOf(app), before, `${second} after ${first}: nothing changed`)
      t.equal((await read(first, txid)).statusCode, 200, `${first} ${txid} is still there`)
      t.equal(chargesOfTxid(before, acc.accountId, txid), 1)
    }
  }
})

t.test('another account\'s txid is no conflict: the txid is unique per receiver', async t => {
  const { app, create } = await setup(t)
  t.equal((await create('cobr', aTxid(1))).statusCode, 201)
  const other = await newAccount(app, { name: 'OUTRA LOJA LTDA' })
  const theirs = apiPixClient(app, await oauthToken(app, other))
  t.equal((await theirs('PUT', `/v2/cob/${aTxid(1)}`, cobBody)).statusCode, 201)
  t.equal((await theirs('PUT', `/v2/cobv/${aTxid(2)}`, cobvBody)).statusCode, 201)
  t.equal((await create('cob', aTxid(2))).statusCode, 201)
})

t.test('a batch (lotecobv) refuses a txid a cobr holds; a cobr made while the batch waits leaves its request NEGADA', async t => {
  const { app, call, create, read } = await setup(t)
  const item = (txid: string) => ({ txid, ...cobvBody })
  t.equal((await create('cobr', aTxid(1))).statusCode, 201)
  const refused = await call('PUT', '/v2/lotecobv/1', { descricao: 'março', cobsv: [item(aTxid(1)), item(aTxid(2))] })
  t.equal(refused.statusCode, 400, refused.body)
  checkAnswer(t, refused, 'PUT', '/lotecobv/{id}')
  t.match(refused.json().detail, aTxid(1))
  t.equal((await call('GET', '/v2/lotecobv/1')).statusCode, 404, 'no batch stored')

  t.equal((await call('PUT', '/v2/lotecobv/2', { descricao: 'abril', cobsv: [item(aTxid(3)), item(aTxid(4))] })).statusCode, 202)
  t.equal((await create('cobr', aTxid(3))).statusCode, 201, 'a request EM_PROCESSAMENTO is no charge yet')
  await advance(app, 60_000)
  const batch = await call('GET', '/v2/lotecobv/2')
  checkAnswer(t, batch, 'GET', '/lotecobv/{id}')
  t.match(batch.json().cobsv, [
    { txid: aTxid(3), status: 'NEGADA', problema: { type: `${PROBLEM_TYPE}CobVOperacaoInvalida`, violacoes: [{ propriedade: 'cobv.txid' }] } },
    { txid: aTxid(4), status: 'CRIADA' },
  ])
  t.equal((await read('cobv', aTxid(3))).statusCode, 404, 'no cobv of the cobr\'s txid')
  t.equal((await read('cobr', aTxid(3))).statusCode, 200)
})

t.test('a txid the sandbox draws (POST /v2/cob, the gateway\'s POST /cob, POST /v2/cobr) is drawn again while a charge of another kind holds it', async t => {
  const { app, acc, call, create, body } = await setup(t)
  const rng = app.sandbox.rng
  /** The txid the sandbox's next draw gives, the random stream left where it was. */
  const next = (): string => {
    const at = rng.state()
    const drawn = drawTxid(rng, 32)
    rng.restore(at)
    return drawn
  }
  const first = next()
  t.equal((await create('cobr', first)).statusCode, 201)
  t.equal(next(), first, 'a cobr made with its txid draws nothing: the next draw is still the cobr\'s txid')
  const cob = await call('POST', '/v2/cob', cobBody)
  t.equal(cob.statusCode, 201, cob.body)
  t.not(cob.json().txid, first, 'POST /v2/cob drew again')

  const second = next()
  t.equal((await create('cobr', second)).statusCode, 201)
  const root = await app.inject({ method: 'POST', url: '/cob', headers: bearer(acc.token), payload: rootCobBody })
  t.equal(root.statusCode, 201, root.body)
  t.not(root.json().txid, second, 'the gateway\'s POST /cob drew again')

  // A cob holds the next draw: the random stream goes back to before its creation (which drew more).
  const at = rng.state()
  const third = next()
  t.equal((await create('root cob', third)).statusCode, 201)
  rng.restore(at)
  const cobr = await call('POST', '/v2/cobr', body({ calendario: { dataDeVencimento: '2026-06-20' } }))
  t.equal(cobr.statusCode, 201, cobr.body)
  t.not(cobr.json().txid, third, 'POST /v2/cobr drew again')
  t.equal((await app.inject({ method: 'GET', url: `/cob/${third}`, headers: bearer(acc.token) })).statusCode, 200, 'the cob keeps its txid')
})

t.test('concurrent creations of one txid across kinds make exactly one charge', async t => {
  const { app, acc, create } = await setup(t)
  for (let round = 1; round <= 3; round++) {
    const txid = aTxid(round)
    // Each round in another order, so that every kind is not always first.
    const kinds = KINDS.map((_, i) => KINDS[(i + round) % KINDS.length])
    const answers = await Promise.all(kinds.map(kind => create(kind, txid)))
    const made = answers.filter(a => a.statusCode === 201)
    t.equal(made.length, 1, `round ${round}: ${answers.map(a => a.statusCode).join(', ')}`)
    t.same(answers.filter(a => a.statusCode !== 201).map(a => a.statusCode).every(s => s === 400 || s === 409), true)
    t.equal(chargesOfTxid(await snapshotOf(app), acc.accountId, txid), 1, `round ${round}: one charge of ${txid}`)
  }
})

t.test('a snapshot with two charges of one txid in one account is refused with the records named, and nothing is replaced', async t => {
  const { app, acc, create, read } = await setup(t)
  t.equal((await create('cob', aTxid(1))).statusCode, 201)
  t.equal((await create('cobv', aTxid(2))).statusCode, 201)
  t.equal((await create('cobr', aTxid(3))).statusCode, 201)
  const snapshot = await snapshotOf(app)
  const [cobr] = Object.values(snapshot.cobrs) as Array<Record<string, any>>
  const idOf = (txid: string) => Object.keys(snapshot.transactions).find(id => snapshot.transactions[id].data.txid === txid)!

  const twice = (change: (s: any) => void) => { const s = structuredClone(snapshot); change(s); return s }
  const cases: Array<[string, any, RegExp]> = [
    ['two cobrs of one txid (both would be debited)', twice(s => { s.cobrs['2'] = { ...structuredClone(cobr), id: 2 } }), new RegExp(`cobrs/2: txid ${aTxid(3)} of account ${acc.accountId} is also cobrs/1's`)],
    ['a cobr of a cob\'s txid', twice(s => { s.cobrs['1'].txid = aTxid(1) }), new RegExp(`cobrs/1: txid ${aTxid(1)} of account ${acc.accountId} is also transactions/${idOf(aTxid(1))}'s`)],
    ['a cob of a cobv\'s txid', twice(s => { s.transactions[idOf(aTxid(1))].data.txid = aTxid(2) }), new RegExp(`txid ${aTxid(2)} of account ${acc.accountId} is also transactions/`)],
  ]
  for (const [name, document, problem] of cases) {
    const refused = await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: document })
    t.equal(refused.statusCode, 400, name)
    t.match(refused.body, problem, name)
  }
  t.same(await snapshotOf(app), snapshot, 'the state is as it was')
  for (const [kind, txid] of [['cob', aTxid(1)], ['cobv', aTxid(2)], ['cobr', aTxid(3)]] as const) t.equal((await read(kind, txid)).statusCode, 200)

  // The same txid in two accounts is no conflict, in a snapshot as through the API.
  const other = await newAccount(app)
  t.equal((await apiPixClient(app, await oauthToken(app, other))('PUT', `/v2/cob/${aTxid(3)}`, cobBody)).statusCode, 201)
  const both = await snapshotOf(app)
  t.equal((await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: both })).statusCode, 200)
  // An import ends the tokens issued before it.
  t.equal((await apiPixClient(app, await oauthToken(app, acc))('GET', `/v2/cobr/${aTxid(3)}`)).statusCode, 200)
})
