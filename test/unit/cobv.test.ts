import t from 'tap'
import fc from 'fast-check'
import { readFileSync } from 'node:fs'
import { Ajv } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { parse } from 'yaml'
import {
  addCalendarDays, businessDayOnOrAfter, calendarDaysBetween, dateOfDayNumber, dayNumber
} from '../../server/domain/business-days.js'
import {
  cobvDue, cobvDueDate, cobvLastPayableDate, cobvPayloadValor, parseCobVTerms, reviseCobVTerms,
  type CobVAmounts, type CobVDue, type CobVTerms, type CobVValor, type JurosModalidade, type Violacao
} from '../../server/domain/cobv.js'
import { centsToString } from '../../server/domain/money.js'
import { BACEN_YAML, loadBacen } from '../helpers/bacen.js'

// API Pix 2.9.0's due charges (server/domain/cobv.ts): the checks of a request's calendario and valor,
// and the amount due on a payment date. Amounts in the comments are worked by hand.

const examples = (parse(readFileSync(BACEN_YAML, 'utf8')) as { components: { examples: Record<string, { value: Record<string, unknown> }> } }).components.examples

function terms (valor: CobVValor, dataDeVencimento: string, validadeAposVencimento = 30): CobVTerms {
  return { calendario: { dataDeVencimento, validadeAposVencimento }, valor }
}

function amountsOn (due: CobVDue): CobVAmounts {
  if (!due.payable) throw new Error(`not payable: ${due.reason}`)
  return due.amounts
}

/** The final amount as API Pix writes it, on a date. */
function finalOn (x: CobVTerms, date: string): string {
  return cobvPayloadValor(amountsOn(cobvDue(x, date))).final
}

function accepted (input: { calendario?: unknown, valor?: unknown }, criacao = '2020-01-01'): CobVTerms {
  const result = parseCobVTerms(input, { criacao })
  if (!result.ok) throw new Error(JSON.stringify(result.violacoes))
  return result.terms
}

function refused (input: { calendario?: unknown, valor?: unknown }, criacao = '2020-01-01'): Violacao[] {
  const result = parseCobVTerms(input, { criacao })
  if (result.ok) throw new Error('accepted')
  return result.violacoes
}

const CALENDARIO = { dataDeVencimento: '2026-04-02' }

t.test('the YAML\'s cobBody1 is accepted, modalidades read as integers, validadeAposVencimento as sent', async t => {
  const body = examples.cobBody1.value
  const x = accepted({ calendario: body.calendario, valor: body.valor }, '2020-09-09')
  t.same(x, {
    calendario: { dataDeVencimento: '2020-12-31', validadeAposVencimento: 30 },
    valor: {
      original: '123.45',
      multa: { modalidade: 2, valorPerc: '15.00' },
      juros: { modalidade: 2, valorPerc: '2.00' },
      desconto: { modalidade: 1, descontoDataFixa: [{ data: '2020-11-30', valorPerc: '30.00' }] },
    },
  }, 'the example sends modalidade as "2", a string, where the schema says integer: read as 2')
})

t.test('cobBody1 day by day: 30.00 off until 30 November, then 15% fine and 2% a calendar day after 31 December', async t => {
  const body = examples.cobBody1.value
  const x = accepted({ calendario: body.calendario, valor: body.valor }, '2020-09-09')
  t.equal(finalOn(x, '2020-11-30'), '93.45', '123.45 - 30.00')
  t.equal(finalOn(x, '2020-12-01'), '123.45', 'the discount ended the day before')
  t.equal(finalOn(x, '2020-12-31'), '123.45', 'on the due date: no fine')
  // 2021-01-01 (a holiday, still a day late): multa 15% of 123.45 = 18.5175 -> 18.52; juros 2% x 1 day = 2.469 -> 2.47.
  t.same(cobvPayloadValor(amountsOn(cobvDue(x, '2021-01-01'))), { original: '123.45', multa: '18.52', juros: '2.47', final: '144.44' })
  // 2021-01-04: 4 days, juros 123.45 x 2% x 4 = 9.876 -> 9.88; 123.45 + 18.52 + 9.88 = 151.85.
  t.equal(finalOn(x, '2021-01-04'), '151.85')
  // 2020-12-31 + 30 days = 2021-01-30, a Saturday: the last day is Monday 2021-02-01, 32 days late:
  // juros 123.45 x 2% x 32 = 79.008 -> 79.01; 123.45 + 18.52 + 79.01 = 220.98.
  t.equal(cobvLastPayableDate(x.calendario), '2021-02-01')
  t.equal(finalOn(x, '2021-02-01'), '220.98')
  t.match(cobvDue(x, '2021-02-02'), { payable: false, reason: 'VENCIDA', dueDate: '2020-12-31', lastPayableDate: '2021-02-01' })
})

t.test('the YAML\'s payload example (123.45 + multa 15.00 + juros 2.00 = 140.45) from a fixed fine and 1.00 a day', async t => {
  const x = terms({ original: '123.45', multa: { modalidade: 1, valorPerc: '15.00' }, juros: { modalidade: 1, valorPerc: '1.00' } }, '2020-12-31')
  // 2021-01-02 is two calendar days after the due date: juros 2 x 1.00.
  t.same(cobvPayloadValor(amountsOn(cobvDue(x, '2021-01-02'))), examples.cobPayload2.value.valor)
})

// The examples of CobDataDeVencimento.validadeAposVencimento: the dates each accepts, then the first it refuses.
const VALIDITY: Array<{ name: string, due: string, validade: number, last: string }> = [
  { name: 'A', due: '2020-10-20', validade: 4, last: '2020-10-26' },
  { name: 'B', due: '2020-12-25', validade: 0, last: '2020-12-28' },
  { name: 'C', due: '2020-12-25', validade: 1, last: '2020-12-29' },
  { name: 'D', due: '2020-12-25', validade: 3, last: '2020-12-31' },
  { name: 'E', due: '2020-12-25', validade: 4, last: '2021-01-04' },
  { name: 'F', due: '2021-08-27', validade: 5, last: '2021-09-01' },
  { name: 'G', due: '2021-08-28', validade: 5, last: '2021-09-06' },
]

t.test('validity after the due date: the examples A to G of API Pix', async t => {
  for (const { name, due, validade, last } of VALIDITY) {
    const x = terms({ original: '10.00' }, due, validade)
    t.equal(cobvLastPayableDate(x.calendario), last, `example ${name}: the last day accepted`)
    for (let d = due; d <= last; d = addCalendarDays(d, 1)) t.ok(cobvDue(x, d).payable, `example ${name}: ${d} accepted`)
    t.match(cobvDue(x, addCalendarDays(last, 1)), { payable: false, reason: 'VENCIDA' }, `example ${name}: the day after refused`)
  }
  t.equal(cobvDueDate('2020-12-25'), '2020-12-28', 'Natal on a Friday: the due date is the Monday (*)')
  t.equal(cobvDueDate('2021-08-28'), '2021-08-30', 'a Saturday: the Monday (*)')
})

t.test('the CobPayloadOperacaoInvalida text counts validity from the unmoved date; the examples of validadeAposVencimento are followed', async t => {
  // Its text: dataDeVencimento 2020-12-25, validadeAposVencimento 10, DPP 2021-01-05 refused. With the due
  // date moved to 2020-12-28 (examples B to E), the tenth day is 2021-01-07.
  const x = terms({ original: '10.00' }, '2020-12-25', 10)
  t.ok(cobvDue(x, '2021-01-05').payable)
  t.equal(cobvLastPayableDate(x.calendario), '2021-01-07')
})

// Due Thursday 2026-04-02; Good Friday 04-03, then a weekend; Tiradentes Tuesday 04-21.
const ORIGINAL = '1000.00'
const withJuros = (modalidade: number, valorPerc: string) => terms({ original: ORIGINAL, juros: { modalidade: modalidade as 1, valorPerc } }, '2026-04-02')

t.test('juros, every modalidade, 4 calendar days (1 business day) late', async t => {
  // Paid Monday 2026-04-06: 4 calendar days after the due date; business days: the 6th only.
  const on = (modalidade: number, valorPerc: string) => amountsOn(cobvDue(withJuros(modalidade, valorPerc), '2026-04-06')).juros
  t.equal(on(1, '1.50'), 600, '1: 1.50 x 4 calendar days')
  t.equal(on(2, '0.33'), 1320, '2: 1000.00 x 0.33% x 4 = 13.20')
  t.equal(on(3, '1.00'), 133, '3: 1000.00 x 1% / 30 x 4 = 1.3333 -> 1.33')
  t.equal(on(4, '12.00'), 133, '4: 1000.00 x 12% / 360 x 4 = 1.3333 -> 1.33')
  t.equal(on(5, '1.50'), 150, '5: 1.50 x 1 business day')
  t.equal(on(6, '0.33'), 330, '6: 1000.00 x 0.33% x 1 = 3.30')
  t.equal(on(7, '1.00'), 48, '7: 1000.00 x 1% / 21 x 1 = 0.476 -> 0.48')
  t.equal(on(8, '12.00'), 48, '8: 1000.00 x 12% / 252 x 1 = 0.476 -> 0.48')
})

t.test('juros over Tiradentes: 20 calendar days, 12 business days', async t => {
  const on = (modalidade: number, valorPerc: string) => amountsOn(cobvDue(withJuros(modalidade, valorPerc), '2026-04-22')).juros
  t.equal(on(3, '1.00'), 667, '1000.00 x 1% / 30 x 20 = 6.6667 -> 6.67')
  t.equal(on(7, '1.00'), 571, '1000.00 x 1% / 21 x 12 = 5.714 -> 5.71')
  t.equal(on(5, '0.10'), 120, '0.10 x 12')
})

t.test('no juros or multa up to the due date, moved to a business day when it falls on a weekend or holiday', async t => {
  const x = terms({ original: ORIGINAL, multa: { modalidade: 1, valorPerc: '2.00' }, juros: { modalidade: 1, valorPerc: '1.00' } }, '2026-04-04')
  t.equal(cobvDueDate('2026-04-04'), '2026-04-06', 'a Saturday: Monday')
  t.same(amountsOn(cobvDue(x, '2026-04-06')), { original: 100000, abatimento: 0, desconto: 0, multa: 0, juros: 0, final: 100000 }, 'paid on the moved due date')
  t.same(amountsOn(cobvDue(x, '2026-04-07')), { original: 100000, abatimento: 0, desconto: 0, multa: 200, juros: 100, final: 100300 }, 'one day after the moved date: the fine, and one day counted from Monday')
})

t.test('multa: applied once, fixed or a percentage of what is owed', async t => {
  const fixed = terms({ original: ORIGINAL, multa: { modalidade: 1, valorPerc: '2.00' } }, '2026-04-02')
  const percent = terms({ original: ORIGINAL, multa: { modalidade: 2, valorPerc: '2.00' }, abatimento: { modalidade: 1, valorPerc: '100.00' } }, '2026-04-02')
  t.equal(amountsOn(cobvDue(fixed, '2026-04-03')).multa, 200)
  t.equal(amountsOn(cobvDue(fixed, '2026-05-01')).multa, 200, 'not more a month later')
  t.equal(amountsOn(cobvDue(percent, '2026-04-03')).multa, 1800, '2% of 1000.00 - 100.00')
})

t.test('rounding is half-up, once per part', async t => {
  // 0.25 x 2% = 0.005: half a cent, rounded up to 0.01 (half-even would give 0.00).
  t.equal(amountsOn(cobvDue(terms({ original: '0.25', multa: { modalidade: 2, valorPerc: '2.00' } }, '2026-04-02'), '2026-04-03')).multa, 1)
  // 1.25 x 10% = 0.125 -> 0.13 (half-even: 0.12).
  t.equal(amountsOn(cobvDue(terms({ original: '1.25', multa: { modalidade: 2, valorPerc: '10.00' } }, '2026-04-02'), '2026-04-03')).multa, 13)
  // Interest is rounded once over the days, not day by day: 1.00 x 0.33% = 0.0033 a day, 0.0132 for 4 days -> 0.01.
  t.equal(amountsOn(cobvDue(terms({ original: '1.00', juros: { modalidade: 2, valorPerc: '0.33' } }, '2026-04-02'), '2026-04-06')).juros, 1)
})

t.test('abatimento: fixed, or a percentage of the original; always deducted', async t => {
  t.equal(finalOn(terms({ original: ORIGINAL, abatimento: { modalidade: 1, valorPerc: '100.00' } }, '2026-04-02'), '2026-04-01'), '900.00')
  t.equal(finalOn(terms({ original: ORIGINAL, abatimento: { modalidade: 2, valorPerc: '12.50' } }, '2026-04-02'), '2026-04-20'), '875.00', 'late too')
  t.same(cobvPayloadValor(amountsOn(cobvDue(terms({ original: '0.01', abatimento: { modalidade: 2, valorPerc: '99.99' } }, '2026-04-02'), '2026-04-01'))),
    { original: '0.01', final: '0.01' }, '99.99% of 0.01 rounds to 0.01: kept below the original, nothing deducted')
})

t.test('desconto 1 and 2: until dates; the largest whose date has not passed', async t => {
  const dated = (modalidade: 1 | 2, list: Array<[string, string]>) =>
    terms({ original: ORIGINAL, desconto: { modalidade, descontoDataFixa: list.map(([data, valorPerc]) => ({ data, valorPerc })) } }, '2026-04-02')
  const x = dated(1, [['2026-03-31', '20.00'], ['2026-03-20', '50.00']])
  t.equal(amountsOn(cobvDue(x, '2026-03-01')).desconto, 5000, 'both apply: the larger')
  t.equal(amountsOn(cobvDue(x, '2026-03-20')).desconto, 5000, 'through its date, inclusive')
  t.equal(amountsOn(cobvDue(x, '2026-03-21')).desconto, 2000)
  t.equal(amountsOn(cobvDue(x, '2026-03-31')).desconto, 2000)
  t.equal(amountsOn(cobvDue(x, '2026-04-01')).desconto, 0)
  const later = dated(1, [['2026-03-20', '10.00'], ['2026-03-31', '30.00']])
  t.equal(amountsOn(cobvDue(later, '2026-03-15')).desconto, 3000, 'a larger discount with a later date: still the larger')
  t.equal(amountsOn(cobvDue(dated(2, [['2026-03-31', '5.00']]), '2026-03-31')).desconto, 5000, '5% of 1000.00')
})

t.test('a discount until the due date moves with it; other dates are as written', async t => {
  const x = terms({ original: ORIGINAL, desconto: { modalidade: 1, descontoDataFixa: [{ data: '2026-04-04', valorPerc: '10.00' }, { data: '2026-04-03', valorPerc: '20.00' }] } }, '2026-04-04')
  t.equal(amountsOn(cobvDue(x, '2026-04-06')).desconto, 1000, 'due Saturday, paid on the moved Monday: the due-date discount holds')
  t.equal(amountsOn(cobvDue(x, '2026-04-03')).desconto, 2000)
  t.equal(amountsOn(cobvDue(x, '2026-04-07')).desconto, 0)
})

t.test('desconto 3 to 6: per calendar or business day of anticipation', async t => {
  const perDay = (modalidade: 3 | 4 | 5 | 6, valorPerc: string) => terms({ original: ORIGINAL, desconto: { modalidade, valorPerc } }, '2026-04-02')
  // Paid Monday 2026-03-30: 3 days early, business days 31st, 1st, 2nd: 3.
  t.equal(amountsOn(cobvDue(perDay(3, '0.50'), '2026-03-30')).desconto, 150)
  t.equal(amountsOn(cobvDue(perDay(4, '0.50'), '2026-03-30')).desconto, 150)
  // Paid Saturday 2026-03-28: 5 calendar days early; business days 30th, 31st, 1st, 2nd: 4.
  t.equal(amountsOn(cobvDue(perDay(3, '0.50'), '2026-03-28')).desconto, 250)
  t.equal(amountsOn(cobvDue(perDay(4, '0.50'), '2026-03-28')).desconto, 200)
  t.equal(amountsOn(cobvDue(perDay(5, '0.10'), '2026-03-28')).desconto, 500, '1000.00 x 0.10% x 5')
  t.equal(amountsOn(cobvDue(perDay(6, '0.10'), '2026-03-28')).desconto, 400, '1000.00 x 0.10% x 4')
  t.equal(amountsOn(cobvDue(perDay(3, '0.50'), '2026-04-02')).desconto, 0, 'none on the due date')
  t.equal(amountsOn(cobvDue(perDay(3, '0.50'), '2026-04-03')).desconto, 0, 'none after')
})

t.test('a discount never takes the amount below 0.01', async t => {
  const x = terms({ original: '100.00', abatimento: { modalidade: 1, valorPerc: '60.00' }, desconto: { modalidade: 3, valorPerc: '10.00' } }, '2026-04-02')
  // 30 days early: 300.00 of discount on 40.00 owed.
  t.same(amountsOn(cobvDue(x, '2026-03-03')), { original: 10000, abatimento: 6000, desconto: 3999, multa: 0, juros: 0, final: 1 })
})

t.test('everything at once', async t => {
  // 500.00, 10% abatimento (50.00, so 450.00 owed), 20.00 off until the due date (Friday 2026-05-29),
  // 2% fine (9.00), 1% a month over calendar days.
  const x = terms({
    original: '500.00',
    abatimento: { modalidade: 2, valorPerc: '10.00' },
    desconto: { modalidade: 1, descontoDataFixa: [{ data: '2026-05-29', valorPerc: '20.00' }] },
    multa: { modalidade: 2, valorPerc: '2.00' },
    juros: { modalidade: 3, valorPerc: '1.00' },
  }, '2026-05-29')
  t.same(cobvPayloadValor(amountsOn(cobvDue(x, '2026-05-29'))), { original: '500.00', abatimento: '50.00', desconto: '20.00', final: '430.00' })
  // 2026-06-08: 10 days late: juros 450.00 x 1% / 30 x 10 = 1.50; 450.00 + 9.00 + 1.50.
  t.same(cobvPayloadValor(amountsOn(cobvDue(x, '2026-06-08'))), { original: '500.00', abatimento: '50.00', multa: '9.00', juros: '1.50', final: '460.50' })
})

t.test('an amount API Pix cannot write is not payable', async t => {
  const x = terms({ original: '9999999999.00', juros: { modalidade: 1, valorPerc: '1.00' } }, '2026-04-02')
  t.ok(cobvDue(x, '2026-04-02').payable)
  t.match(cobvDue(x, '2026-04-03'), { payable: false, reason: 'VALOR_ACIMA_DO_MAXIMO' }, '9,999,999,999.00 + 1.00 fits? no: 10 integer digits at most, 9999999999.99')
  t.ok(cobvDue(terms({ original: '9999999999.98', juros: { modalidade: 1, valorPerc: '0.01' } }, '2026-04-02'), '2026-04-03').payable)
})

// --- checks of a request ------------------------------------------------------------------------

t.test('calendario: violations in API Pix\'s words', async t => {
  const v = (calendario: unknown, criacao = '2026-03-01') => refused({ calendario, valor: { original: '10.00' } }, criacao)
  t.same(v(undefined), [{ razao: 'O objeto cobv.calendario não respeita o _schema_: deve ser um objeto com dataDeVencimento e, opcionalmente, validadeAposVencimento.', propriedade: 'cobv.calendario' }])
  t.same(v({}), [{ razao: 'O campo cobv.calendario.dataDeVencimento não respeita o _schema_: deve ser uma data AAAA-MM-DD que exista, como "2026-03-10".', propriedade: 'cobv.calendario.dataDeVencimento' }])
  t.same(v({ dataDeVencimento: '2026-02-30' }), [{ razao: 'O campo cobv.calendario.dataDeVencimento não respeita o _schema_: deve ser uma data AAAA-MM-DD que exista, como "2026-03-10".', propriedade: 'cobv.calendario.dataDeVencimento', valor: '2026-02-30' }])
  t.same(v({ dataDeVencimento: '2026-02-28' }), [{ razao: 'O campo cobv.calendario.dataDeVencimento é anterior à data de criação da cobrança.', propriedade: 'cobv.calendario.dataDeVencimento', valor: '2026-02-28' }])
  t.same(v({ dataDeVencimento: '2026-03-01', validadeAposVencimento: -1 }), [{ razao: 'O campo cobv.calendario.validadeAposVencimento é menor do que zero.', propriedade: 'cobv.calendario.validadeAposVencimento', valor: '-1' }])
  for (const bad of ['30', 1.5, 2_147_483_648, null]) {
    t.same(v({ dataDeVencimento: '2026-03-01', validadeAposVencimento: bad }).map(x => x.propriedade), ['cobv.calendario.validadeAposVencimento'], `validadeAposVencimento ${JSON.stringify(bad)}`)
  }
  t.same(v({ dataDeVencimento: '9999-12-01', validadeAposVencimento: 31 }).map(x => x.razao), ['O campo cobv.calendario.validadeAposVencimento não respeita o _schema_: deve ser um número de dias que termine a validade até 9999-12-31.'], 'a validity that ends after year 9999')
  t.same(accepted({ calendario: { dataDeVencimento: '2026-03-01' }, valor: { original: '10.00' } }, '2026-03-01').calendario,
    { dataDeVencimento: '2026-03-01', validadeAposVencimento: 30 }, 'due on the day of creation; validity 30 by default')
  t.same(accepted({ calendario: { dataDeVencimento: '9999-12-31', validadeAposVencimento: 0 }, valor: { original: '10.00' } }).calendario.dataDeVencimento, '9999-12-31', 'a Friday: no move needed')
})

t.test('valor.original', async t => {
  const v = (valor: unknown) => refused({ calendario: CALENDARIO, valor })
  t.same(v(undefined), [{ razao: 'O objeto cobv.valor não respeita o _schema_: deve ser um objeto com original, um valor com 2 casas decimais, como "10.00".', propriedade: 'cobv.valor' }])
  t.same(v({ original: '0.00' }), [{ razao: 'O campo cobv.valor.original apresenta o valor zero.', propriedade: 'cobv.valor.original', valor: '0.00' }])
  for (const bad of [undefined, 10, '10', '10.0', '10.000', '12345678901.00', ' 1.00', '-1.00', '1,00']) {
    t.same(v({ original: bad }).map(x => x.razao), ['O campo cobv.valor.original não respeita o _schema_: deve ser um valor com 2 casas decimais e até 10 dígitos antes do ponto, como "10.00".'], JSON.stringify(bad))
  }
  t.equal(accepted({ calendario: CALENDARIO, valor: { original: '9999999999.99' } }).valor.original, '9999999999.99')
  t.same(accepted({ calendario: CALENDARIO, valor: { original: '1.00', modalidadeAlteracao: 1 } }).valor, { original: '1.00' }, 'unknown members are dropped')
})

t.test('multa, juros, abatimento: modalidade in range, valorPerc a decimal', async t => {
  const v = (valor: Record<string, unknown>) => refused({ calendario: CALENDARIO, valor: { original: '100.00', ...valor } }).map(x => x.razao)
  for (const [name, max] of [['multa', 2], ['juros', 8], ['abatimento', 2]] as const) {
    const schema = [`O objeto cobv.valor.${name} não respeita o _schema_: deve ser um objeto com modalidade (um inteiro de 1 a ${max}) e valorPerc (um valor com 2 casas decimais, como "2.00").`]
    t.same(v({ [name]: { modalidade: 0, valorPerc: '1.00' } }), schema, `${name} modalidade 0`)
    t.same(v({ [name]: { modalidade: max + 1, valorPerc: '1.00' } }), schema, `${name} modalidade ${max + 1}`)
    t.same(v({ [name]: { modalidade: 1.5, valorPerc: '1.00' } }), schema)
    t.same(v({ [name]: { modalidade: '01', valorPerc: '1.00' } }), schema, 'a string only in the integer\'s own spelling')
    t.same(v({ [name]: { modalidade: 1 } }), schema, 'valorPerc is required')
    t.same(v({ [name]: { modalidade: 1, valorPerc: 1 } }), schema)
    t.same(v({ [name]: null }), schema)
    t.same(v({ [name]: [] }), schema)
    t.same(accepted({ calendario: CALENDARIO, valor: { original: '100.00', [name]: { modalidade: String(max), valorPerc: '1.00', extra: true } } }).valor[name],
      { modalidade: max, valorPerc: '1.00' })
  }
  const tooLarge = ['O objeto cobv.valor.abatimento representa um valor maior ou igual ao valor da cobrança original ou maior ou igual a 100%.']
  t.same(v({ abatimento: { modalidade: 1, valorPerc: '100.00' } }), tooLarge, 'equal to the original')
  t.same(v({ abatimento: { modalidade: 2, valorPerc: '100.00' } }), tooLarge, '100%')
  t.ok(accepted({ calendario: CALENDARIO, valor: { original: '100.00', abatimento: { modalidade: 1, valorPerc: '99.99' } } }))
  t.ok(accepted({ calendario: CALENDARIO, valor: { original: '100.00', multa: { modalidade: 2, valorPerc: '150.00' } } }), 'no bound on a fine or interest')
})

t.test('desconto: the violations of the YAML\'s list', async t => {
  const v = (desconto: unknown, due = '2026-04-02') => refused({ calendario: { dataDeVencimento: due }, valor: { original: '100.00', desconto } }).map(x => `${x.propriedade}: ${x.razao}`)
  const schema = 'cobv.valor.desconto: O objeto cobv.valor.desconto não respeita o _schema_: deve ser um objeto com modalidade, um inteiro de 1 a 6.'
  const list = 'cobv.valor.desconto: O objeto cobv.valor.desconto não respeita o _schema_: descontoDataFixa deve ser uma lista de 1 a 3 elementos, cada um com data (AAAA-MM-DD) e valorPerc (como "1.00"), em datas diferentes.'
  t.same(v({ modalidade: 7, valorPerc: '1.00' }), [schema])
  t.same(v({ valorPerc: '1.00' }), [schema])
  t.same(v({ modalidade: 1, descontoDataFixa: [{ data: '2026-04-01', valorPerc: '1.00' }], valorPerc: '1.00' }),
    ['cobv.valor.desconto.valorPerc: O objeto cobv.valor.desconto apresenta modalidade no valor 1 ou 2, porém cobv.valor.desconto.valorPerc encontra-se preenchido.'])
  const noList = ['cobv.valor.desconto.descontoDataFixa: O objeto cobv.valor.desconto apresenta modalidade no valor 1 ou 2, porém o array cobv.valor.desconto.descontoDataFixa está vazio ou nulo.']
  t.same(v({ modalidade: 2 }), noList)
  t.same(v({ modalidade: 2, descontoDataFixa: [] }), noList)
  t.same(v({ modalidade: 2, descontoDataFixa: null }), noList)
  t.same(v({ modalidade: 4 }), ['cobv.valor.desconto.valorPerc: O objeto cobv.valor.desconto apresenta modalidade nos valores de 3 a 6, porém o elemento cobv.valor.desconto.valorPerc não está preenchido.'])
  t.same(v({ modalidade: 4, valorPerc: '1.00', descontoDataFixa: [] }),
    ['cobv.valor.desconto.descontoDataFixa: O objeto cobv.valor.desconto apresenta modalidade nos valores de 3 a 6, porém o elemento cobv.valor.desconto.descontoDataFixa está preenchido ou não nulo.'])
  t.same(v({ modalidade: 1, descontoDataFixa: [{ data: '2026-04-03', valorPerc: '1.00' }] }),
    ['cobv.valor.desconto: O objeto cobv.valor.desconto apresenta algum elemento cuja data seja posterior à data de vencimento representada por calendario.dataDeVencimento.'])
  const tooLarge = ['cobv.valor.desconto: O objeto cobv.valor.desconto apresenta algum elemento de desconto que representa um valor maior ou igual ao valor da cobrança original ou maior ou igual a 100%.']
  t.same(v({ modalidade: 1, descontoDataFixa: [{ data: '2026-04-01', valorPerc: '1.00' }, { data: '2026-03-01', valorPerc: '100.00' }] }), tooLarge)
  t.same(v({ modalidade: 2, descontoDataFixa: [{ data: '2026-04-01', valorPerc: '100.00' }] }), tooLarge)
  t.same(v({ modalidade: 3, valorPerc: '100.00' }), tooLarge, 'a discount per day as large as the original')
  t.same(v({ modalidade: 6, valorPerc: '100.00' }), tooLarge)
  t.same(v({ modalidade: 1, descontoDataFixa: [1, 2, 3, 4].map(d => ({ data: `2026-03-0${d}`, valorPerc: '1.00' })) }), [list], 'at most 3 elements')
  t.same(v({ modalidade: 1, descontoDataFixa: [{ data: '2026-03-01', valorPerc: '1.00' }, { data: '2026-03-01', valorPerc: '2.00' }] }), [list], 'one date twice')
  t.same(v({ modalidade: 1, descontoDataFixa: [{ data: '01/03/2026', valorPerc: '1.00' }] }), [list])
  t.same(v({ modalidade: 3, valorPerc: 1 }), ['cobv.valor.desconto: O objeto cobv.valor.desconto não respeita o _schema_: valorPerc deve ser um valor com 2 casas decimais, como "1.00".'])
  t.same(accepted({ calendario: CALENDARIO, valor: { original: '100.00', desconto: { modalidade: 1, descontoDataFixa: [{ data: '2026-04-02', valorPerc: '99.99' }, { data: '2026-03-01', valorPerc: '5.00' }] } } }).valor.desconto,
    { modalidade: 1, descontoDataFixa: [{ data: '2026-04-02', valorPerc: '99.99' }, { data: '2026-03-01', valorPerc: '5.00' }] }, 'on the due date, in any order')
})

t.test('every violation is reported, calendario first', async t => {
  const out = refused({ calendario: { dataDeVencimento: '2026-04-02', validadeAposVencimento: -1 }, valor: { original: '0.00', multa: { modalidade: 3, valorPerc: '1.00' }, desconto: { modalidade: 1, descontoDataFixa: [{ data: '2026-05-01', valorPerc: '1.00' }] } } })
  t.same(out.map(x => x.propriedade), ['cobv.calendario.validadeAposVencimento', 'cobv.valor.original', 'cobv.valor.multa', 'cobv.valor.desconto'])
})

t.test('a revision replaces what it gives and keeps the rest, then is checked whole', async t => {
  const current = accepted({
    calendario: { dataDeVencimento: '2026-04-02', validadeAposVencimento: 10 },
    valor: { original: '100.00', multa: { modalidade: 1, valorPerc: '2.00' }, desconto: { modalidade: 1, descontoDataFixa: [{ data: '2026-03-20', valorPerc: '5.00' }] } },
  })
  const revised = reviseCobVTerms(current, { valor: { original: '110.00' }, calendario: { dataDeVencimento: '2026-04-10' } }, { criacao: '2026-03-01' })
  t.same(revised, { ok: true, terms: { calendario: { dataDeVencimento: '2026-04-10', validadeAposVencimento: 10 }, valor: { ...current.valor, original: '110.00' } } },
    'validadeAposVencimento kept, not reset to 30; multa and desconto kept')
  t.same(reviseCobVTerms(current, { valor: { multa: { modalidade: 2, valorPerc: '1.00' } } }, { criacao: '2026-03-01' }), { ok: true, terms: { ...current, valor: { ...current.valor, multa: { modalidade: 2, valorPerc: '1.00' } } } })
  t.same(reviseCobVTerms(current, {}, { criacao: '2026-03-01' }), { ok: true, terms: current }, 'nothing to revise')
  const earlier = reviseCobVTerms(current, { calendario: { dataDeVencimento: '2026-03-10' } }, { criacao: '2026-03-01' })
  t.match(earlier, { ok: false, violacoes: [{ propriedade: 'cobv.valor.desconto', razao: /posterior à data de vencimento/ }] }, 'a due date moved before a discount date')
  t.match(reviseCobVTerms(current, { valor: { original: '5.00' } }, { criacao: '2026-03-01' }), { ok: false, violacoes: [{ razao: /algum elemento de desconto/ }] }, 'an original below the discount')
  t.match(reviseCobVTerms(current, { calendario: { dataDeVencimento: '2026-03-05' } }, { criacao: '2026-03-06' }), { ok: false, violacoes: [{ razao: /anterior à data de criação/ }] }, 'checked against the creation date')
  t.same(reviseCobVTerms(current, { valor: 'x' }, { criacao: '2026-03-01' }), { ok: false, violacoes: [{ razao: 'O objeto cobv.valor não respeita o _schema_: deve ser um objeto com original, um valor com 2 casas decimais, como "10.00".', propriedade: 'cobv.valor' }] })
  t.match(reviseCobVTerms(current, { valor: { multa: null } }, { criacao: '2026-03-01' }), { ok: false, violacoes: [{ propriedade: 'cobv.valor.multa' }] }, 'null does not remove a member')
})

t.test('the YAML\'s lote revision example moves due dates before the lote\'s creation, which its own violation list refuses', async t => {
  const lote = examples.loteCobVBodyRevisado1.value as { cobsv: Array<{ calendario: unknown, valor: unknown }> }
  const current = accepted({ calendario: { dataDeVencimento: '2020-12-31' }, valor: { original: '100.00' } }, '2020-11-01')
  const [first] = lote.cobsv
  t.match(reviseCobVTerms(current, { calendario: first.calendario, valor: first.valor }, { criacao: '2020-11-01' }), { ok: false, violacoes: [{ propriedade: 'cobv.calendario.dataDeVencimento' }] })
})

// --- properties ----------------------------------------------------------------------------------

const FIRST = dayNumber('2020-01-01')
const LAST = dayNumber('2035-12-31')
const decimal = (min: number, max: number) => fc.integer({ min, max }).map(centsToString)

/** Up to 3 discounts until distinct dates on or before the due date: amounts below the original (1), percentages below 100% (2). */
const datedDesconto = (due: string, original: number) => fc.constantFrom(1 as const, 2 as const).chain(modalidade =>
  fc.uniqueArray(fc.record({ offset: fc.integer({ min: 0, max: 60 }), value: fc.integer({ min: 0, max: modalidade === 1 ? original - 1 : 9999 }) }),
    { minLength: 1, maxLength: 3, selector: e => e.offset })
    .map(list => ({ modalidade, descontoDataFixa: list.map(e => ({ data: addCalendarDays(due, -e.offset), valorPerc: centsToString(e.value) })) })))

/** Valid terms: fixed parts below the original, percentages below 100% where API Pix bounds them, discount dates up to the due date. */
const validTerms = fc.record({
  due: fc.integer({ min: FIRST, max: LAST }).map(dateOfDayNumber),
  validade: fc.integer({ min: 0, max: 60 }),
  original: fc.integer({ min: 1, max: 100_000_000 }),
}).chain(({ due, validade, original }) => fc.record({
  multa: fc.option(fc.record({ modalidade: fc.constantFrom(1 as const, 2 as const), valorPerc: decimal(0, 5000) }), { nil: undefined }),
  juros: fc.option(fc.record({ modalidade: fc.integer({ min: 1, max: 8 }) as fc.Arbitrary<JurosModalidade>, valorPerc: decimal(0, 2000) }), { nil: undefined }),
  abatimento: fc.option(fc.oneof(
    fc.record({ modalidade: fc.constant(1 as const), valorPerc: decimal(0, original - 1) }),
    fc.record({ modalidade: fc.constant(2 as const), valorPerc: decimal(0, 9999) })), { nil: undefined }),
  desconto: fc.option(fc.oneof(
    datedDesconto(due, original),
    fc.record({ modalidade: fc.constantFrom(3 as const, 4 as const), valorPerc: decimal(0, Math.min(original - 1, 50_000)) }),
    fc.record({ modalidade: fc.constantFrom(5 as const, 6 as const), valorPerc: decimal(0, 9999) })), { nil: undefined }),
}).map(parts => {
  const valor: Record<string, unknown> = { original: centsToString(original) }
  for (const [k, v] of Object.entries(parts)) if (v !== undefined) valor[k] = v
  return { calendario: { dataDeVencimento: due, validadeAposVencimento: validade }, valor }
}))

/** A payment date from 90 days before the due date to a few days past the last payable day. */
const withDates = validTerms.chain(input => {
  const x = accepted(input, '2019-01-01')
  const from = dayNumber(x.calendario.dataDeVencimento) - 90
  const to = dayNumber(cobvLastPayableDate(x.calendario)) + 5
  return fc.tuple(fc.constant(x), fc.integer({ min: from, max: to }).map(dateOfDayNumber), fc.integer({ min: from, max: to }).map(dateOfDayNumber))
})

t.test('properties of the amount due', async t => {
  fc.assert(fc.property(withDates, ([x, date]) => {
    const due = cobvDue(x, date)
    const last = cobvLastPayableDate(x.calendario)
    if (date > last) return !due.payable && due.reason === 'VENCIDA'
    if (!due.payable) return false
    const a = due.amounts
    const owed = a.original - a.abatimento
    const lateDate = date > businessDayOnOrAfter(x.calendario.dataDeVencimento)
    return Object.values(a).every(n => Number.isSafeInteger(n) && n >= 0) &&
      a.final >= 1 && owed >= 1 && a.desconto <= owed - 1 &&
      a.final === owed - a.desconto + a.multa + a.juros &&
      (lateDate ? a.desconto === 0 : a.multa === 0 && a.juros === 0)
  }), { numRuns: 3000 })
})

t.test('the final amount never falls as the payment date moves later (discounts end, then fine and interest)', async t => {
  fc.assert(fc.property(withDates, ([x, d1, d2]) => {
    const [early, late] = d1 <= d2 ? [d1, d2] : [d2, d1]
    const a = cobvDue(x, early)
    const b = cobvDue(x, late)
    if (!a.payable || !b.payable) return true
    return a.amounts.final <= b.amounts.final && a.amounts.juros <= b.amounts.juros && a.amounts.desconto >= b.amounts.desconto
  }), { numRuns: 3000 })
})

t.test('accepted terms and the payload\'s valor match the YAML\'s schemas', async t => {
  const { doc } = loadBacen()
  const ajv = (addFormatsModule as unknown as (a: Ajv) => Ajv)(new Ajv({ strict: false }))
  ajv.addFormat('int32', true)
  // CobVValor.desconto is oneOf [{ descontoDataFixa }, { required valorPerc }], and the first has no
  // `required`: a desconto of modalidade 3 to 6 matches both, so oneOf refuses every one. Read with the
  // first branch requiring descontoDataFixa, as the violation list means it.
  const perDay = { original: '10.00', desconto: { modalidade: 3, valorPerc: '1.00' } }
  const written = parse(readFileSync(BACEN_YAML, 'utf8')) as typeof doc
  t.notOk(ajv.compile(written.components.schemas.CobVValor)(perDay), 'the defect, as written')
  // loadBacen reads it corrected (test/helpers/bacen.ts, CORRECTIONS).
  const validValor = ajv.compile(doc.components.schemas.CobVValor)
  t.ok(validValor(perDay), 'corrected')
  const validCalendario = ajv.compile(doc.components.schemas.CobDataDeVencimento)
  const validPayload = ajv.compile(doc.components.schemas.CobVPayloadValor)
  fc.assert(fc.property(withDates, ([x, date]) => {
    const due = cobvDue(x, date)
    return validValor(x.valor) && validCalendario(x.calendario) && (!due.payable || validPayload(cobvPayloadValor(due.amounts)))
  }), { numRuns: 1000 })
})

t.test('any JSON is answered, never thrown at: accepted, or violations each naming a cobv property', async t => {
  const member = fc.oneof(fc.jsonValue(), fc.record({ dataDeVencimento: fc.oneof(fc.jsonValue(), fc.constant('2026-04-02')), validadeAposVencimento: fc.jsonValue() }, { requiredKeys: [] }))
  const valor = fc.oneof(fc.jsonValue(), fc.record({
    original: fc.oneof(fc.jsonValue(), decimal(0, 100_000)),
    multa: fc.jsonValue(),
    juros: fc.record({ modalidade: fc.jsonValue(), valorPerc: fc.jsonValue() }, { requiredKeys: [] }),
    abatimento: fc.jsonValue(),
    desconto: fc.record({ modalidade: fc.oneof(fc.jsonValue(), fc.integer({ min: 1, max: 6 })), valorPerc: fc.jsonValue(), descontoDataFixa: fc.jsonValue() }, { requiredKeys: [] }),
  }, { requiredKeys: [] }))
  fc.assert(fc.property(member, valor, (calendario, v) => {
    const result = parseCobVTerms({ calendario, valor: v }, { criacao: '2026-03-01' })
    if (result.ok) return calendarDaysBetween('2026-03-01', result.terms.calendario.dataDeVencimento) >= 0
    return result.violacoes.length > 0 && result.violacoes.every(x => x.propriedade.startsWith('cobv.') && x.razao.includes(x.propriedade.replace(/\.(valorPerc|descontoDataFixa)$/, '')))
  }), { numRuns: 3000 })
})
