import t, { type Test } from 'tap'
import type { RefundReads } from '../../../server/ports.js'
import { CentralBankReads } from '../../../server/dialects/shared/central-bank-reads.js'
import { receivedPixViews } from '../../../server/dialects/gateway/views.js'
import { ReceivedPixService } from '../../../server/services/received-pix.js'
import type { CobData, Mutable, Transaction } from '../../../server/store/state.js'
import type { Store } from '../../../server/store/store.js'
import { addAccount, addReceived, engine, T0 } from './harness.js'

// CentralBankReads alone: the store holds the records, and fakes stand for the charge service (a cob's
// view: here its txid and status) and the refund service (the refunds of a payment), with the gateway's
// view of a received PIX. The records are put in the store directly, so the index of the PIX received
// is built from it before each list, as a load builds it.

const HOUR = 3_600_000

function addCob (store: Store, accountId: number, txid: string, at: number, devedor?: CobData['devedor'], status = 'ATIVA'): Transaction {
  const iso = new Date(at).toISOString()
  return store.transact(() => store.addTransaction({
    id: `cob-${txid}`,
    seq: store.nextSeq('transaction'),
    accountId,
    kind: 'COB',
    direction: 'IN',
    status,
    amountCents: 1_000,
    feeCents: 0,
    errorCode: null,
    errorMessage: null,
    data: { txid, location: `pix.sandbox.local/qr/v2/cob/1/${txid}`, pixCode: 'x', splits: [], cob: { expiracao: 3600, original: '10.00', modalidadeAlteracao: 0, locId: 1, ...(devedor ? { devedor } : {}) } },
    createdAt: iso,
    updatedAt: iso,
    history: [{ status, at: iso }],
  } as Mutable<Transaction>, undefined, [`cob:${accountId}:${txid}`]))
}

async function reads (t: Test) {
  const e = await engine(t)
  addAccount(e.store, 1)
  addAccount(e.store, 2)
  const refunded = new Set<string>()
  // A settled devolução d1 of each refunded payment.
  const devolucao = (tx: Transaction) => ({ ...tx, id: `d1-of-${tx.id}`, kind: 'DEVOLUCAO', status: 'DEVOLVIDO', amountCents: 100, data: { originalId: tx.id, rtrId: 'D1', devolucaoId: 'd1', natureza: 'ORIGINAL', motivo: null, requestedAt: tx.createdAt } }) as Mutable<Transaction> as Transaction
  const refunds: RefundReads = { refundsOf: tx => refunded.has(tx.id) ? [devolucao(tx)] : [] }
  const charges = { cobView: (tx: Transaction) => ({ txid: (tx.data as { txid: string }).txid, status: tx.status }) }
  const receivedPix = new ReceivedPixService(e)
  const received = {
    receivedWithin: (accountId: number, arrived: { from: number, to: number }) => {
      for (const derived of receivedPix.derived) derived.rebuild()
      return receivedPix.receivedWithin(accountId, arrived)
    },
  }
  const service = new CentralBankReads({ store: e.store, charges, refunds, pix: receivedPixViews(refunds), received })
  return { ...e, service, refunded, account: (id: number) => e.store.account(id)! }
}

const window = { inicio: new Date(T0 - HOUR).toISOString(), fim: new Date(T0 + 10 * HOUR).toISOString() }

t.test('GET /cob: the account\'s cobs created within [inicio, fim], both ends included, oldest first', async t => {
  const { service, store, account } = await reads(t)
  addCob(store, 1, 'before', T0 - HOUR - 1)
  addCob(store, 1, 'atStart', T0 - HOUR)
  addCob(store, 1, 'atEnd', T0 + 10 * HOUR, { cpf: '52998224725', nome: 'MARIA' })
  addCob(store, 1, 'paid', T0, { cnpj: '11222333000181', nome: 'EMPRESA' }, 'CONCLUIDA')
  addCob(store, 2, 'other', T0)
  addReceived(store, { accountId: 1, amountCents: 100 })
  const all = service.cobs(account(1), window)
  t.same(all.cobs.map(c => c.txid), ['atStart', 'atEnd', 'paid'], 'in the order they were created')
  t.same(all.parametros, { ...window, paginacao: { paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: 1, quantidadeTotalDeItens: 3 } })
  t.same(service.cobs(account(1), { ...window, cpf: '52998224725' }).cobs.map(c => c.txid), ['atEnd'])
  t.same(service.cobs(account(1), { ...window, cnpj: '11222333000181' }).cobs.map(c => c.txid), ['paid'])
  t.same(service.cobs(account(1), { ...window, status: 'CONCLUIDA' }).cobs.map(c => c.txid), ['paid'])
  t.same(service.cobs(account(1), { ...window, locationPresente: false }).cobs, [], 'every cob has its location')
  const page = service.cobs(account(1), { ...window, 'paginacao.paginaAtual': 1, 'paginacao.itensPorPagina': 2 })
  t.same(page.cobs.map(c => c.txid), ['paid'])
  t.same(page.parametros.paginacao, { paginaAtual: 1, itensPorPagina: 2, quantidadeDePaginas: 2, quantidadeTotalDeItens: 3 })
  const empty = service.cobs(account(2), { inicio: '2020-01-01T00:00:00Z', fim: '2020-01-02T00:00:00Z' })
  t.equal(empty.parametros.paginacao.quantidadeDePaginas, 1, 'an empty answer still has one page')
})

t.test('a bad window is refused with one message per problem', async t => {
  const { service, account } = await reads(t)
  t.match(t.throws(() => service.cobs(account(1), { inicio: 'ontem', fim: '2026-02-30T00:00:00Z' })), { messages: [/^inicio/, /^fim/] })
  t.match(t.throws(() => service.cobs(account(1), { inicio: window.fim, fim: window.inicio })), { messages: [/posterior a inicio/] })
  t.match(t.throws(() => service.receivedList(account(1), { ...window, cpf: '52998224725', cnpj: '11222333000181' })), { messages: [/cpf e cnpj/] })
})

t.test('GET /pix: the PIX the account received within the window by their horario, filtered', async t => {
  const { service, store, refunded, account } = await reads(t)
  const late = addReceived(store, { accountId: 1, amountCents: 300, at: T0 + 2 * HOUR })
  const early = addReceived(store, { accountId: 1, amountCents: 100, at: T0, txid: 'tx1', payer: { name: 'EMPRESA', document: '11222333000181', ispb: '60701190', bankName: 'ITAU' } })
  addReceived(store, { accountId: 1, amountCents: 100, at: T0 + 20 * HOUR })
  addReceived(store, { accountId: 2, amountCents: 100, at: T0 })
  addCob(store, 1, 'unpaid', T0)
  refunded.add(late.id)
  const e2e = (r: ReturnType<typeof service.receivedList>) => r.pix.map(p => p.endToEndId)
  t.same(e2e(service.receivedList(account(1), window)), [early.endToEndId, late.endToEndId], 'by horario, not by creation')
  t.same(e2e(service.receivedList(account(1), { ...window, txid: 'tx1' })), [early.endToEndId])
  t.same(e2e(service.receivedList(account(1), { ...window, txIdPresente: false })), [late.endToEndId])
  t.same(e2e(service.receivedList(account(1), { ...window, devolucaoPresente: true })), [late.endToEndId])
  t.same(e2e(service.receivedList(account(1), { ...window, cnpj: '11222333000181' })), [early.endToEndId])
  t.same(e2e(service.receivedList(account(1), { ...window, cpf: '52998224725' })), [late.endToEndId])
  t.same(service.receivedList(account(1), window).pix[1].devolucoes.map(d => d.id), ['d1'], 'each with its devoluções')
})

t.test('GET /pix/{e2eid}: only a PIX this account received', async t => {
  const { service, store, account } = await reads(t)
  const mine = addReceived(store, { accountId: 1, amountCents: 1_234 })
  t.match(service.received(account(1), mine.endToEndId!), { endToEndId: mine.endToEndId, valor: '12.34' })
  t.throws(() => service.received(account(2), mine.endToEndId!), { code: 'NOT_FOUND' }, 'another account\'s PIX is not found, not forbidden')
  t.throws(() => service.received(account(1), 'E0000000020260310150000000000999'), { code: 'NOT_FOUND' })
})
