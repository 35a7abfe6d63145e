import t from 'tap'
import type { RefundReads } from '../../../server/ports.js'
import { chargeData, receivedOf } from '../../../server/services/charge-records.js'
import { receivedPixView } from '../../../server/dialects/shared/bacen.js'
import type { Transaction } from '../../../server/store/state.js'
import { addAccount, addPayout, addReceived, engine, T0 } from './harness.js'

// The view of a received PIX in BACEN's `Pix` shape (GET /pix, a paid cob's pix[]) and the reading of a
// charge record it relies on, with a fake for the devoluções the refund service would list.

t.test('receivedPixView: valor, horario, the payer as cpf or cnpj, txid only when there is one, and its devoluções', async t => {
  const { store } = await engine(t)
  addAccount(store, 1)
  const asked: string[] = []
  const refunds: RefundReads = { refundsOf: tx => { asked.push(tx.id); return [] } }
  const person = addReceived(store, { accountId: 1, amountCents: 1_050 })
  t.same(receivedPixView(refunds, person), {
    endToEndId: person.endToEndId,
    valor: '10.50',
    horario: new Date(T0).toISOString(),
    pagador: { nome: 'MARIA PAGADORA', cpf: '52998224725' },
    devolucoes: [],
  })
  t.same(asked, [person.id])
  const company = addReceived(store, { accountId: 1, amountCents: 1, txid: 'abc123', payer: { name: 'EMPRESA', document: '11222333000181', ispb: '1', bankName: 'B' } })
  t.match(receivedPixView(refunds, company), { txid: 'abc123', valor: '0.01', pagador: { nome: 'EMPRESA', cnpj: '11222333000181' } })
  t.notOk('cpf' in receivedPixView(refunds, company).pagador)
})

t.test('receivedOf: a payment only once its money arrived; chargeData refuses a record that is no charge', async t => {
  const { store } = await engine(t)
  addAccount(store, 1)
  const received = addReceived(store, { accountId: 1, amountCents: 100 })
  t.equal(receivedOf(received)?.amountCents, 100)
  const as = (kind: 'CASH_IN' | 'COB', status: string) => ({ ...received, kind, status }) as Transaction
  t.equal(receivedOf(as('CASH_IN', 'PENDING')), undefined, 'a cash-in not yet paid')
  t.equal(receivedOf(as('CASH_IN', 'CONFIRMED'))?.amountCents, 100)
  t.equal(receivedOf(as('COB', 'ATIVA')), undefined)
  t.equal(receivedOf(as('COB', 'CONCLUIDA'))?.amountCents, 100)
  t.equal(receivedOf(as('CASH_IN', 'ERROR')), undefined, 'a payment the provider failed credited nothing')
  const payout = addPayout(store, { accountId: 1, amountCents: 10 })
  t.throws(() => chargeData(payout), /CASH_OUT, not a charge/)
  t.equal(receivedOf(payout), undefined)
})
