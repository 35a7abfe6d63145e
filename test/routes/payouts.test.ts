import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../server/app.js'
import { buildTestApp, tokenFor, bearer, balanceOf, newAccount, T0 } from '../helpers/app.js'
import {
  recordEmits, cashOutEvents, cashOutBody, cashOut, advance, transaction,
  JOAO, FINANCEIRO, BLOCKED_KEY, CLOSED_PHONE, UNLISTED_EMAIL, OTHER_VALID_CPF, CPF_MARIA,
} from '../helpers/payouts.js'

t.test('a cash-out reserves value + fee, settles to the key holder and sends the CashOut notification', async t => {
  const app = await buildTestApp(t)
  const emitted = recordEmits(app)
  const token = await tokenFor(app)
  const res = await cashOut(app, token, cashOutBody({ value: 10, externalId: 'pedido-1' }))
  t.equal(res.statusCode, 201)
  const body = res.json()
  t.match(body, { transactionId: /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, externalId: 'pedido-1', status: 'PENDING', generateTime: '2026-03-10T15:00:00.000Z' })
  t.same(Object.keys(body).sort(), ['externalId', 'generateTime', 'status', 'transactionId'])
  t.same(await balanceOf(app, 1), { available: 9989.5, blocked: 10.5, invariantHolds: true })
  t.equal(cashOutEvents(emitted).length, 0, 'nothing is sent before settlement')

  await advance(app, 50)
  t.same(await balanceOf(app, 1), { available: 9989.5, blocked: 0, invariantHolds: true })
  const tx = await transaction(app, body.transactionId)
  t.equal(tx.status, 'CONFIRMED')
  t.same(tx.history.map((h: { status: string }) => h.status), ['PENDING', 'CONFIRMED'])

  const events = cashOutEvents(emitted, body.transactionId)
  t.equal(events.length, 1)
  t.equal(events[0].accountId, 1)
  const payload = events[0].payload as Record<string, unknown>
  t.match(payload.endToEndId, /^E99999004202603101500[0-9A-Za-z]{11}$/, 'endToEndId carries the payer ISPB and the UTC minute')
  t.same(payload, {
    event: 'CashOut',
    status: 'CONFIRMED',
    transactionType: 'PIX',
    movementType: 'DEBIT',
    transactionId: body.transactionId,
    externalId: 'pedido-1',
    endToEndId: tx.endToEndId,
    pixKey: JOAO.key,
    feeAmount: 0.5,
    originalAmount: 10,
    finalAmount: 10.5,
    processingDate: '2026-03-10T15:00:00.050Z',
    errorCode: null,
    errorMessage: null,
    counterpart: {
      name: 'JOAO SOUZA',
      document: JOAO.document,
      bank: { bankISPB: '00360305', bankName: 'CAIXA ECONOMICA FEDERAL', bankCode: '104', accountBranch: '0215', accountNumber: '00012345-7' },
    },
    metadata: {},
  })
  const account = (await app.inject({ method: 'GET', url: '/__sandbox/accounts/1' })).json()
  t.same(account.totals, { opening: 10000, adjustments: 0, settledIn: 0, settledOut: 10, fees: 0.5 })
})

t.test('amounts are exact to the cent', async t => {
  const app = await buildTestApp(t)
  const token = await tokenFor(app)
  const ok = await cashOut(app, token, cashOutBody({ value: 0.29 }))
  t.equal(ok.statusCode, 201, '0.29 is valid although 0.29 * 100 is not an integer in floating point')
  t.same(await balanceOf(app, 1), { available: 9999.21, blocked: 0.79, invariantHolds: true })

  for (const value of [10.123, 1.005, 1e15]) {
    const res = await cashOut(app, token, cashOutBody({ value }))
    t.equal(res.statusCode, 400, `value ${value}`)
    t.equal(res.json().code, 'PIX_INVALID_AMOUNT')
    t.equal(res.json().errorCode, 'PIX_INVALID_AMOUNT')
    t.equal(res.json().path, '/pix/cash-out')
  }
  const tooSmall = await cashOut(app, token, cashOutBody({ value: 0.001 }))
  t.equal(tooSmall.statusCode, 400)
  t.equal(tooSmall.json().code, 'HTTP_ERROR')
  t.same(tooSmall.json().message, ['value deve ser maior ou igual a 0.01'])
  t.same(await balanceOf(app, 1), { available: 9999.21, blocked: 0.79, invariantHolds: true }, 'rejected requests reserve nothing')
})

t.test('body validation answers HTTP_ERROR with one message per invalid field and creates nothing', async t => {
  const app = await buildTestApp(t)
  const token = await tokenFor(app)
  const res = await cashOut(app, token, {
    value: '10',
    description: 'x'.repeat(141),
    details: { key: JOAO.key, keyType: 'CPF', name: 'n'.repeat(101), document: '' },
  })
  t.equal(res.statusCode, 400)
  const body = res.json()
  t.equal(body.code, 'HTTP_ERROR')
  t.equal(body.error, 'Bad Request')
  t.notOk(body.errorCode)
  t.same(body.message.sort(), [
    'description deve ter no máximo 140 caracteres',
    'details.document deve ter no mínimo 1 caractere',
    'details.keyType deve ser um de: DOCUMENT, EMAIL, PHONE, RANDOM',
    'details.name deve ter no máximo 100 caracteres',
    'externalId é obrigatório',
    'value deve ser do tipo número',
  ])
  const list = (await app.inject({ method: 'GET', url: '/__sandbox/transactions?accountId=1' })).json()
  t.same(list.transactions, [])
  t.same(await balanceOf(app, 1), { available: 10000, blocked: 0, invariantHolds: true })
})

t.test('the key must match its keyType and the document must have valid check digits', async t => {
  const app = await buildTestApp(t)
  const token = await tokenFor(app)
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ key: JOAO.key, keyType: 'PHONE' }, 'PIX_INVALID_PIX_KEY'],
    [{ key: '+5511987654321', keyType: 'PHONE' }, 'PIX_INVALID_PIX_KEY'], // the cash-out phone has no country code
    [{ key: '52998224724', keyType: 'DOCUMENT' }, 'PIX_INVALID_PIX_KEY'],
    [{ key: 'not-a-uuid', keyType: 'RANDOM' }, 'PIX_INVALID_PIX_KEY'],
  ]
  for (const [details, code] of cases) {
    const res = await cashOut(app, token, cashOutBody({}, details))
    t.equal(res.statusCode, 400, JSON.stringify(details))
    t.equal(res.json().errorCode, code)
  }
  for (const key of ['11987654321', '7D9F03358DCC40549BF84E0B9C1A8E51', CPF_MARIA]) {
    const keyType = key.length === 11 && key.startsWith('11') ? 'PHONE' : key.length === 11 ? 'DOCUMENT' : 'RANDOM'
    const res = await cashOut(app, token, cashOutBody({}, { key, keyType, document: keyType === 'DOCUMENT' ? key : JOAO.document }))
    t.equal(res.statusCode, 201, `${keyType} ${key} is accepted`)
  }
  const badDoc = await cashOut(app, token, cashOutBody({}, { document: '52998224724' }))
  t.equal(badDoc.statusCode, 400)
  t.equal(badDoc.json().code, 'HTTP_ERROR')
  t.same(badDoc.json().message, ['details.document deve ser um CPF (11 dígitos) ou CNPJ (14 dígitos) válido'])
})

t.test('a reused externalId is PIX_DUPLICATE_EXTERNAL_ID (400) with the existing numeric id, and pays once', async t => {
  const app = await buildTestApp(t)
  const token = await tokenFor(app)
  const first = await cashOut(app, token, cashOutBody({ externalId: 'dup-1', value: 20 }))
  t.equal(first.statusCode, 201)
  const seq = (await transaction(app, first.json().transactionId)).seq
  const again = await cashOut(app, token, cashOutBody({ externalId: 'dup-1', value: 30 }))
  t.equal(again.statusCode, 400)
  t.match(again.json(), { code: 'PIX_DUPLICATE_EXTERNAL_ID', errorCode: 'PIX_DUPLICATE_EXTERNAL_ID', details: { externalId: 'dup-1', existingTransactionId: seq } })
  t.equal(typeof again.json().details.existingTransactionId, 'number')
  t.same(await balanceOf(app, 1), { available: 9979.5, blocked: 20.5, invariantHolds: true })

  // Another account may use the same externalId: it is unique per account.
  const other = await newAccount(app)
  t.equal((await cashOut(app, other.token, cashOutBody({ externalId: 'dup-1' }))).statusCode, 201)
})

t.test('insufficient balance: value + fee must be available', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 10, fee: 0.5 })
  const short = await cashOut(app, acc.token, cashOutBody({ value: 9.51 }))
  t.equal(short.statusCode, 400)
  t.match(short.json(), { code: 'PIX_INSUFFICIENT_BALANCE', errorCode: 'PIX_INSUFFICIENT_BALANCE', statusCode: 400 })
  t.same(await balanceOf(app, acc.accountId), { available: 10, blocked: 0, invariantHolds: true })
  const exact = await cashOut(app, acc.token, cashOutBody({ value: 9.5 }))
  t.equal(exact.statusCode, 201)
  t.same(await balanceOf(app, acc.accountId), { available: 0, blocked: 10, invariantHolds: true })
})

t.test('per-transaction and daily limits; a failed pay-out gives its amount back to the day', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 5000, fee: 0, limits: { perTransaction: 200, daily: 300 } })
  const over = await cashOut(app, acc.token, cashOutBody({ value: 200.01 }))
  t.equal(over.statusCode, 400)
  t.equal(over.json().errorCode, 'PIX_TRANSACTION_LIMIT_EXCEEDED')

  t.equal((await cashOut(app, acc.token, cashOutBody({ value: 200 }))).statusCode, 201)
  const blocked = await cashOut(app, acc.token, cashOutBody({ value: 100 }, { key: BLOCKED_KEY }))
  t.equal(blocked.statusCode, 201, '200 + 100 reaches the daily limit exactly')
  const beyond = await cashOut(app, acc.token, cashOutBody({ value: 0.01 }))
  t.equal(beyond.statusCode, 400)
  t.equal(beyond.json().errorCode, 'PIX_DAILY_LIMIT_EXCEEDED')
  t.same(await balanceOf(app, acc.accountId), { available: 4700, blocked: 300, invariantHolds: true })

  await advance(app, 50) // the pay-out to the blocked account fails: its 100 no longer counts
  t.equal((await transaction(app, blocked.json().transactionId)).status, 'ERROR')
  t.equal((await cashOut(app, acc.token, cashOutBody({ value: 100 }))).statusCode, 201)
  t.equal((await cashOut(app, acc.token, cashOutBody({ value: 0.01 }))).json().errorCode, 'PIX_DAILY_LIMIT_EXCEEDED')

  // A new day in São Paulo (03:00 UTC is midnight there) starts from zero.
  await app.inject({ method: 'POST', url: '/__sandbox/clock/set', payload: { now: '2026-03-11T09:00:00.000Z' } })
  acc.token = await tokenFor(app, acc) // tokens live 1800 s of sandbox time
  t.equal((await cashOut(app, acc.token, cashOutBody({ value: 200 }))).statusCode, 201)
  t.same(await balanceOf(app, acc.accountId), { available: 4500, blocked: 200, invariantHolds: true })
})

t.test('the night limit applies from 20:00 to 06:00 in São Paulo by the sandbox clock', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 50000, fee: 0, limits: { nightly: 1000 } })
  t.equal((await cashOut(app, acc.token, cashOutBody({ value: 5000 }))).statusCode, 201, 'noon: the day limits apply')
  await app.inject({ method: 'POST', url: '/__sandbox/clock/set', payload: { now: '2026-03-10T23:00:00.000Z' } }) // 20:00 local
  acc.token = await tokenFor(app, acc) // tokens live 1800 s of sandbox time
  const night = await cashOut(app, acc.token, cashOutBody({ value: 1000.01 }))
  t.equal(night.statusCode, 400)
  t.equal(night.json().errorCode, 'PIX_NIGHT_LIMIT_EXCEEDED')
  t.equal((await cashOut(app, acc.token, cashOutBody({ value: 1000 }))).statusCode, 201)
  await app.inject({ method: 'POST', url: '/__sandbox/clock/set', payload: { now: '2026-03-11T08:59:59.000Z' } }) // 05:59:59 local
  acc.token = await tokenFor(app, acc)
  t.equal((await cashOut(app, acc.token, cashOutBody({ value: 1500 }))).json().errorCode, 'PIX_NIGHT_LIMIT_EXCEEDED')
  await app.inject({ method: 'POST', url: '/__sandbox/clock/set', payload: { now: '2026-03-11T09:00:00.000Z' } }) // 06:00 local
  acc.token = await tokenFor(app, acc)
  t.equal((await cashOut(app, acc.token, cashOutBody({ value: 1500 }))).statusCode, 201)
})

t.test('a request without a valid token is a 401 in the extended shape', async t => {
  const app = await buildTestApp(t)
  const res = await app.inject({ method: 'POST', url: '/api/pix/cash-out', payload: cashOutBody() })
  t.equal(res.statusCode, 401)
  t.match(res.json(), { statusCode: 401, path: '/pix/cash-out', method: 'POST' })
  const bad = await app.inject({ method: 'POST', url: '/api/pix/cash-out', headers: bearer('nope'), payload: cashOutBody() })
  t.equal(bad.statusCode, 401)
})

t.test('a key missing from the directory is paid to a generated holder at another institution', async t => {
  const app = await buildTestApp(t)
  const emitted = recordEmits(app)
  const token = await tokenFor(app)
  const res = await cashOut(app, token, cashOutBody({}, { key: UNLISTED_EMAIL, document: OTHER_VALID_CPF }))
  await advance(app, 50)
  const [event] = cashOutEvents(emitted, res.json().transactionId)
  const payload = event.payload as { status: string, counterpart: { name: string, document: string, bank: { bankISPB: string } } }
  t.equal(payload.status, 'CONFIRMED')
  t.equal(payload.counterpart.document, OTHER_VALID_CPF)
  t.match(payload.counterpart.name, /^[A-Z]+ [A-Z]+$/)
  t.match(payload.counterpart.bank.bankISPB, /^\d{8}$/)
  t.not(payload.counterpart.bank.bankISPB, '99999004', 'never the payer institution')
  // The record says the holder was invented (the dashboard marks it); the webhook's counterpart is as the gateway's.
  t.equal((await transaction(app, res.json().transactionId)).counterpart.generated, true)
  t.notOk('generated' in (payload.counterpart as object), 'not in the webhook')
  const listed = await cashOut(app, token, cashOutBody({ externalId: 'to-joao' }))
  await advance(app, 50)
  const joao = await transaction(app, listed.json().transactionId)
  t.match(joao.counterpart, { name: 'JOAO SOUZA' })
  t.notOk('generated' in joao.counterpart, 'a directory entry is no invention')
})

t.test('the same key outside the directory always reaches the same generated holder', async t => {
  const app = await buildTestApp(t)
  const emitted = recordEmits(app)
  const token = await tokenFor(app)
  const holderOf = async (key: string, externalId: string) => {
    const res = await cashOut(app, token, cashOutBody({ externalId }, { key, document: OTHER_VALID_CPF }))
    await advance(app, 50)
    return (cashOutEvents(emitted, res.json().transactionId)[0].payload as { counterpart: unknown }).counterpart
  }
  const first = await holderOf(UNLISTED_EMAIL, 'h-1')
  t.same(await holderOf(UNLISTED_EMAIL, 'h-2'), first, 'paid again: same holder, bank and account number')
  t.not(JSON.stringify(await holderOf('outra.pessoa@example.org', 'h-3')), JSON.stringify(first), 'another key: another holder')
})

t.test('a key outside the directory keeps its generated holder across a snapshot export and import, and a reset', async t => {
  const app = await buildTestApp(t)
  const emitted = recordEmits(app)
  const token = await tokenFor(app)
  const holderOf = async (externalId: string) => {
    // A new token each time: an import or a reset ends the tokens issued before it.
    const res = await cashOut(app, await tokenFor(app), cashOutBody({ externalId }, { key: UNLISTED_EMAIL, document: OTHER_VALID_CPF }))
    t.equal(res.statusCode, 201)
    await advance(app, 50)
    return (cashOutEvents(emitted, res.json().transactionId)[0].payload as { counterpart: unknown }).counterpart
  }
  // Other payments in between move the random stream: the holder must not depend on where it stands.
  const other = await cashOut(app, token, cashOutBody({ externalId: 'other' }, { key: 'outra.pessoa@example.org' }))
  t.equal(other.statusCode, 201)
  const first = await holderOf('k-1')
  const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  t.equal((await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })).statusCode, 200)
  t.same(await holderOf('k-2'), first, 'the same snapshot imported again: the same holder, bank and account')
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/reset' })).statusCode, 200)
  t.same(await holderOf('k-1'), first, 'after a full reset too: the holder is a property of the key and the seed')
})

t.test('a key outside the directory keeps its generated holder when the sandbox restarts on its data file with the same seed', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'pix-holder-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const start = async (): Promise<FastifyInstance> => {
    const app = await buildApp({ config: { data: join(dir, 'state.json'), seed: 'holder-seed', clock: 'frozen', clockStart: T0, settlementDelayMs: 50 } })
    t.teardown(() => app.close())
    return app
  }
  const holderOf = async (app: FastifyInstance, externalId: string) => {
    const emitted = recordEmits(app)
    const res = await cashOut(app, await tokenFor(app), cashOutBody({ externalId }, { key: UNLISTED_EMAIL, document: OTHER_VALID_CPF }))
    await advance(app, 50)
    return (cashOutEvents(emitted, res.json().transactionId)[0].payload as { counterpart: unknown }).counterpart
  }
  const before = await start()
  const first = await holderOf(before, 'r-1')
  await before.close()
  t.same(await holderOf(await start(), 'r-2'), first, 'the same holder, bank and account after the restart')
})

t.test('destination accounts BLOCKED or CLOSED in the directory fail the settlement and release the reservation', async t => {
  const app = await buildTestApp(t)
  const emitted = recordEmits(app)
  const token = await tokenFor(app)
  const blocked = await cashOut(app, token, cashOutBody({ value: 100 }, { key: BLOCKED_KEY }))
  const closed = await cashOut(app, token, cashOutBody({ value: 200 }, { key: CLOSED_PHONE, keyType: 'PHONE' }))
  t.same(await balanceOf(app, 1), { available: 9699, blocked: 301, invariantHolds: true })
  await advance(app, 50)
  t.same(await balanceOf(app, 1), { available: 10000, blocked: 0, invariantHolds: true })
  for (const [res, code] of [[blocked, 'BLOCKED_ACCOUNT'], [closed, 'ACCOUNT_CLOSED']] as const) {
    const tx = await transaction(app, res.json().transactionId)
    t.equal(tx.status, 'ERROR')
    t.equal(tx.errorCode, code)
    const [event] = cashOutEvents(emitted, tx.id)
    t.match(event.payload, { event: 'CashOut', status: 'ERROR', errorCode: code, errorMessage: /\S/, transactionId: tx.id })
  }
})

t.test('the document check follows the provider group of the account (spec 2.4)', async t => {
  const app = await buildTestApp(t)
  const emitted = recordEmits(app)
  // financeiro@example.com belongs to a company; the caller guesses a person's CPF: a real mismatch.
  const mismatch = { key: FINANCEIRO.key, document: OTHER_VALID_CPF }
  const cases: Array<{ group: string, documentCheck: boolean, status: string, errorCode: string | null }> = [
    { group: 'A', documentCheck: false, status: 'ERROR', errorCode: 'PROVIDER_REJECTED' },
    { group: 'B', documentCheck: false, status: 'CONFIRMED', errorCode: null },
    { group: 'B', documentCheck: true, status: 'ERROR', errorCode: 'TAX_ID_MISMATCH' },
    { group: 'C', documentCheck: true, status: 'CONFIRMED', errorCode: null },
    { group: 'D', documentCheck: false, status: 'CONFIRMED', errorCode: null },
    { group: 'D', documentCheck: true, status: 'ERROR', errorCode: 'TAX_ID_MISMATCH' },
    { group: 'E', documentCheck: true, status: 'CONFIRMED', errorCode: null },
  ]
  for (const c of cases) {
    const acc = await newAccount(app, { providerGroup: c.group, documentCheck: c.documentCheck, balance: 100, fee: 1 })
    const res = await cashOut(app, acc.token, cashOutBody({ value: 50 }, mismatch))
    t.equal(res.statusCode, 201)
    await advance(app, 50)
    const tx = await transaction(app, res.json().transactionId)
    const label = `group ${c.group}, documentCheck ${c.documentCheck}`
    t.equal(tx.status, c.status, label)
    t.equal(tx.errorCode, c.errorCode, label)
    const balance = await balanceOf(app, acc.accountId)
    t.same(balance, c.status === 'CONFIRMED' ? { available: 49, blocked: 0, invariantHolds: true } : { available: 100, blocked: 0, invariantHolds: true }, `${label}: debit only on success`)
    const [event] = cashOutEvents(emitted, tx.id)
    const payload = event.payload as Record<string, unknown>
    t.equal(payload.status, c.status)
    if (c.status === 'CONFIRMED') {
      t.match(payload.counterpart, { name: 'COMERCIAL ALFA LTDA', document: FINANCEIRO.holderDocument }, `${label}: paid to the key owner`)
    } else if (c.group === 'A') {
      t.match(payload, { errorCode: 'PROVIDER_REJECTED', errorMessage: /provedor/ }, 'group A passes its own message on')
    }
  }
  const matching = await newAccount(app, { providerGroup: 'A', balance: 100 })
  const ok = await cashOut(app, matching.token, cashOutBody({ value: 5 }, { key: FINANCEIRO.key, document: FINANCEIRO.holderDocument }))
  await advance(app, 50)
  t.equal((await transaction(app, ok.json().transactionId)).status, 'CONFIRMED', 'group A pays when the document matches')
})
