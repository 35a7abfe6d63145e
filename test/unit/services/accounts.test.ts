import t from 'tap'
import { fingerprintOf } from '../../../server/auth/certificates.js'
import { invariantHolds } from '../../../server/domain/ledger.js'
import { AccountService } from '../../../server/services/accounts.js'
import { addReceived, engine, T0 } from './harness.js'

// AccountService alone: a memory store, the frozen clock, a seeded random stream and the built-in
// fixtures (R$ 10.000,00 opening balance, fee R$ 0,50, one fixture account with id 1 and a directory).

async function accounts (t: Parameters<typeof engine>[0]) {
  const e = await engine(t)
  return { ...e, service: new AccountService(e.store, e.fixtures, e.clock, e.rng) }
}

t.test('seedFixtures puts the fixture accounts and the key directory in an empty store', async t => {
  const { service, store, fixtures } = await accounts(t)
  service.seedFixtures()
  const account = store.account(1)!
  t.equal(account.clientId, fixtures.accounts[0].clientId)
  t.same(account.balance, { availableCents: 1_000_000, blockedCents: 0 }, 'the defaults\' R$ 10.000,00')
  t.equal(account.feeCents, 50)
  t.same(account.limits, { perTransactionCents: 5_000_000, dailyCents: 20_000_000, nightlyCents: 100_000 })
  t.same(account.certificateFingerprints, [fingerprintOf(fixtures.accounts[0].certificatePem)], 'its client certificate is linked')
  t.equal(account.createdAt, new Date(T0).toISOString(), 'dated by the sandbox clock')
  t.equal(Object.keys(store.data.directory).length, fixtures.directory.length)
  t.equal(service.fixtureOf(1)?.name, account.name)
  t.equal(service.fixtureOf(2), undefined)
})

t.test('create: a fresh account after the fixtures, with its own credentials and certificate, settings over the defaults', async t => {
  const { service, store } = await accounts(t)
  service.seedFixtures()
  const created = await service.create({ name: 'LOJA NOVA', balance: 250.5, fee: 0.1, limits: { daily: 1000 }, splitFrequency: 'IMMEDIATE' })
  const account = created.account
  t.equal(account.id, 2, 'the first id after the fixture accounts')
  t.equal(store.account(2), account)
  t.equal(account.name, 'LOJA NOVA')
  t.same(account.balance, { availableCents: 25_050, blockedCents: 0 })
  t.equal(account.totals.openingCents, 25_050)
  t.equal(account.feeCents, 10)
  t.same(account.limits, { perTransactionCents: 5_000_000, dailyCents: 100_000, nightlyCents: 100_000 }, 'only the daily limit given, the others from the defaults')
  t.equal(account.splitFrequency, 'IMMEDIATE')
  t.match(account.clientId, /^sbx-2-[a-z0-9]{12}$/)
  t.equal(account.clientSecret.length, 32)
  t.match(account.document, /^\d{14}$/, 'a CNPJ when none is given')
  t.match(created.certificate, /BEGIN CERTIFICATE/)
  t.match(created.privateKey, /PRIVATE KEY/)
  t.same(account.certificateFingerprints, [fingerprintOf(created.certificate)])
  t.equal(store.accountByClientId(account.clientId), account, 'its credentials find it')

  const second = await service.create()
  t.equal(second.account.id, 3)
  t.equal(second.account.name, 'CONTA SANDBOX 3')
  t.not(second.account.clientSecret, account.clientSecret)
})

t.test('credentials do not come from the seeded stream: two sandboxes with one seed hand out different secrets', async t => {
  const one = await accounts(t)
  const two = await accounts(t)
  const a = (await one.service.create()).account
  const b = (await two.service.create()).account
  t.equal(a.document, b.document, 'what the seed decides is the same')
  t.not(a.clientSecret, b.clientSecret)
  t.not(a.clientId, b.clientId)
})

t.test('amounts in BRL become cents by the project\'s decimal rule, not by floating-point rounding', async t => {
  const { service } = await accounts(t)
  const { account } = await service.create({ balance: 1.005, fee: 0.295 })
  t.equal(account.totals.openingCents, 101, '1.005 rounds half up to 1.01 (Math.round(1.005 * 100) is 100)')
  t.equal(account.feeCents, 30)
})

t.test('concurrent creations get distinct ids and use up none', async t => {
  const { service, store } = await accounts(t)
  const made = await Promise.all([service.create(), service.create(), service.create()])
  t.same(made.map(m => m.account.id).sort(), [1, 2, 3])
  t.equal(store.peekSeq('account'), 4)
})

t.test('require answers the account, or ACCOUNT_NOT_FOUND', async t => {
  const { service } = await accounts(t)
  service.seedFixtures()
  t.equal(service.require(1).id, 1)
  t.throws(() => service.require(42), { code: 'ACCOUNT_NOT_FOUND' })
})

t.test('reset returns an account to its opening balance, without its transactions, same id and credentials', async t => {
  const { service, store } = await accounts(t)
  const { account } = await service.create({ balance: 100 })
  addReceived(store, { accountId: account.id, amountCents: 5_000 })
  service.changeBalance(store.account(account.id)!, { credit: 20 })
  t.equal(store.transactionsOf(account.id).length, 1)
  const fresh = service.reset(store.account(account.id)!)
  t.equal(fresh.id, account.id)
  t.equal(fresh.clientSecret, account.clientSecret)
  t.same(fresh.certificateFingerprints, account.certificateFingerprints)
  t.same(fresh.balance, { availableCents: 10_000, blockedCents: 0 })
  t.same(fresh.totals, { openingCents: 10_000, adjustmentsCents: 0, settledInCents: 0, settledOutCents: 0, feesCents: 0 })
  t.same(store.transactionsOf(account.id), [], 'its transactions are gone')
  t.equal(store.accountByClientId(account.clientId)?.id, account.id, 'still found by its credentials')
})

t.test('changeBalance credits, debits or sets the available balance, keeping the invariant; refuses below zero', async t => {
  const { service, store } = await accounts(t)
  const { account } = await service.create({ balance: 100 })
  const current = () => store.account(account.id)!
  t.equal(service.changeBalance(current(), { credit: 25.5 }), null)
  t.equal(current().balance.availableCents, 12_550)
  t.equal(service.changeBalance(current(), { credit: -0.5 }), null)
  t.equal(current().balance.availableCents, 12_500)
  t.equal(service.changeBalance(current(), { set: 7 }), null)
  t.equal(current().balance.availableCents, 700)
  t.equal(current().totals.adjustmentsCents, -9_300)
  t.ok(invariantHolds(current()))
  t.equal(service.changeBalance(current(), { credit: -7.01 }), 'NEGATIVE')
  t.equal(service.changeBalance(current(), { set: -1 }), 'NEGATIVE')
  t.equal(current().balance.availableCents, 700, 'a refused change leaves the balance as it was')
})
