import t from 'tap'
import { buildBrCode, crc16, parseBrCode } from '../../server/domain/brcode.js'
import { contractCode, readRecurrenceCode, recurrenceCode, withRecurrence } from '../../server/domain/rec-codes.js'
import { examples } from '../helpers/api-pix-schemas.js'

/** The BR Codes of Pix Automático's journeys 2 and 3 (server/domain/rec-codes.ts), against API Pix's own example. */

const REC_LOCATION = 'pix.example.com/qr/v2/rec/2353c790eefb11eaadc10242ac120002'

t.test('journey 2: the code of API Pix\'s example, field for field (the sandbox writes the name in capitals)', async t => {
  const example: string = examples.recResponse3.value.dadosQR.pixCopiaECola
  t.same(readRecurrenceCode(example), { ok: true, recLocation: REC_LOCATION, payable: false })
  const mine = recurrenceCode({ recLocation: REC_LOCATION, merchantName: 'Fulano de Tal', merchantCity: 'BRASILIA' })
  t.equal(mine.slice(0, -4), example.slice(0, -4).replace('Fulano de Tal', 'FULANO DE TAL'))
  t.equal(mine.slice(-4), crc16(mine.slice(0, -4)))
})

t.test('journey 3: a charge\'s code with the recurrence added keeps the payment and its CRC is new', async t => {
  const charge = buildBrCode({ location: 'pix.example.com/qr/v2/cobv/9d36b84fc70b478fb95c12729b90ca25', singleUse: true, amountCents: 3500, merchantName: 'Loja', merchantCity: 'SAO PAULO' })
  const composite = withRecurrence(charge, REC_LOCATION)
  t.ok(composite.startsWith(charge.slice(0, -8)), 'the charge\'s fields first, unchanged')
  t.same(readRecurrenceCode(composite), { ok: true, recLocation: REC_LOCATION, payable: true })
  t.equal(composite.slice(-4), crc16(composite.slice(0, -4)))
})

t.test('the static code of a contract: a static code to the key, its amount and txid only when given, with the recurrence', async t => {
  const code = contractCode({ key: 'loja@example.com', recLocation: REC_LOCATION, amountCents: 3500, txid: '63100862', merchantName: 'Loja', merchantCity: 'SAO PAULO' })
  t.same(readRecurrenceCode(code), { ok: true, recLocation: REC_LOCATION, payable: true })
  t.match(parseBrCode(code), { ok: true, value: { singleUse: false, key: 'loja@example.com', amountCents: 3500, txid: '63100862' } })
  const bare = parseBrCode(contractCode({ key: '11222333000181', recLocation: REC_LOCATION, merchantName: 'Loja', merchantCity: 'SAO PAULO' }))
  t.ok(bare.ok && bare.value.amountCents === undefined && bare.value.txid === undefined, 'no amount, txid ***')
})

t.test('what is no recurrence\'s code is said so', async t => {
  const example: string = examples.recResponse3.value.dadosQR.pixCopiaECola
  t.match(readRecurrenceCode(`${example.slice(0, -4)}0000`), { ok: false, reason: /CRC/ })
  t.match(readRecurrenceCode(buildBrCode({ location: 'pix.example.com/qr/v2/x', singleUse: true, amountCents: 100, merchantName: 'Loja', merchantCity: 'SAO PAULO' })), { ok: false, reason: /campo 80/ })
  t.match(readRecurrenceCode('não é código'), { ok: false })
  t.throws(() => withRecurrence('000201', REC_LOCATION), RangeError)
})
