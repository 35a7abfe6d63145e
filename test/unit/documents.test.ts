import t from 'tap'
import fc from 'fast-check'
import {
  API_PIX_DOCUMENT_FORMATS, documentKind, generateCnpj, generateCpf, isValidCnpj, isValidCpf, isValidDocument, maskDocument
} from '../../server/domain/documents.js'
import { createRng } from '../../server/domain/ids.js'

t.test('CPF check digits', async t => {
  t.ok(isValidCpf('52998224725'), '529.982.247-25')
  t.ok(isValidCpf('11144477735'), '111.444.777-35')
  t.ok(isValidCpf('00000000191'), 'a CPF whose first check digit comes from a remainder below 2')
  t.notOk(isValidCpf('52998224724'), 'wrong second check digit')
  t.notOk(isValidCpf('52998224715'), 'wrong first check digit')
  t.notOk(isValidCpf('11111111111'), 'all-same digits satisfy the arithmetic but are not issued')
  t.notOk(isValidCpf('00000000000'))
  t.notOk(isValidCpf('529.982.247-25'), 'formatting is not accepted')
  t.notOk(isValidCpf('5299822472'), '10 digits')
  t.notOk(isValidCpf('529982247250'), '12 digits')
  t.notOk(isValidCpf(''), 'empty')
  t.notOk(isValidCpf('5299822472A'))
})

t.test('CNPJ check digits, numeric and alphanumeric', async t => {
  t.ok(isValidCnpj('11222333000181'), '11.222.333/0001-81')
  t.ok(isValidCnpj('00000000000191'), 'a real numeric CNPJ starting with zeros')
  t.ok(isValidCnpj('12ABC34501DE35'), 'the Receita Federal alphanumeric example 12.ABC.345/01DE-35')
  t.notOk(isValidCnpj('12abc34501de35'), 'letters are upper-case only')
  t.notOk(isValidCnpj('12ABC34501DE36'), 'wrong check digit')
  t.notOk(isValidCnpj('12ABC34501DE3A'), 'check digits are numeric')
  t.notOk(isValidCnpj('11222333000182'))
  t.notOk(isValidCnpj('11222333000171'))
  t.notOk(isValidCnpj('11111111111111'), 'all-same digits')
  t.notOk(isValidCnpj('00000000000000'))
  t.notOk(isValidCnpj('11.222.333/0001-81'), 'formatting is not accepted')
  t.notOk(isValidCnpj('1122233300018'), '13 characters')
  t.notOk(isValidCnpj('112223330001811'), '15 characters')
})

t.test('the alphanumeric CNPJ by the Receita Federal\'s rule: a character is worth its ASCII code minus 48', async t => {
  // 12ABC34501DE: 1 2 A=17 B=18 C=19 3 4 5 0 1 D=20 E=21.
  // First digit, weights 5 4 3 2 9 8 7 6 5 4 3 2: 5+8+51+36+171+24+28+30+0+4+60+42 = 459 = 11 x 41 + 8 -> 11 - 8 = 3.
  // Second, weights 6 5 4 3 2 9 8 7 6 5 4 3 2 over 12ABC34501DE3: 6+10+68+54+38+27+32+35+0+5+80+63+6 = 424 = 11 x 38 + 6 -> 5.
  t.ok(isValidCnpj('12ABC34501DE35'))
  for (const dv of ['34', '25', '53', '36']) t.notOk(isValidCnpj(`12ABC34501DE${dv}`), `check digits ${dv}`)
  t.notOk(isValidCnpj('12ABC34501DE3F'), 'a letter is no check digit')
  t.notOk(isValidCnpj('12ABÇ34501DE35'), 'A to Z only')
  t.notOk(isValidCnpj('12AB-34501DE35'), 'no punctuation in place of a character')
})

// The numeric CNPJ's rule as it always was, digit by digit: the alphanumeric rule must agree on every numeric CNPJ.
function numericCnpjValid (s: string): boolean {
  if (!/^\d{14}$/.test(s) || /^(\d)\1*$/.test(s)) return false
  const digit = (base: string) => {
    const weights = base.length === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]
    const r = [...base].reduce((sum, c, i) => sum + Number(c) * weights[i], 0) % 11
    return r < 2 ? 0 : 11 - r
  }
  const d1 = digit(s.slice(0, 12))
  return s.endsWith(`${d1}${digit(s.slice(0, 12) + d1)}`)
}

t.test('on numeric CNPJs the alphanumeric rule is the numeric rule', async t => {
  fc.assert(fc.property(fc.stringMatching(/^\d{12}$/), fc.integer({ min: 0, max: 99 }), (base, dv) => {
    const s = base + String(dv).padStart(2, '0')
    return isValidCnpj(s) === numericCnpjValid(s)
  }), { numRuns: 5000 })
  t.ok(isValidCnpj('11222333000181'))
})

t.test('the API Pix dialect\'s formats: CPF, and CNPJ numeric or alphanumeric, with their check digits', async t => {
  t.same(Object.keys(API_PIX_DOCUMENT_FORMATS), ['api-pix-cpf', 'api-pix-cnpj'])
  const cpf = API_PIX_DOCUMENT_FORMATS['api-pix-cpf']
  const cnpj = API_PIX_DOCUMENT_FORMATS['api-pix-cnpj']
  t.ok(cpf('52998224725'))
  t.notOk(cpf('11222333000181'))
  t.ok(cnpj('12ABC34501DE35'))
  t.ok(cnpj('11222333000181'))
  t.notOk(cnpj('52998224725'))
  t.notOk(cnpj('12abc34501de35'), 'lower case: API Pix\'s pattern is ^[0-9A-Z]{14}$')
  t.notOk(cnpj('12ABC34501DEAB'), 'matches API Pix\'s pattern, yet check digits are numeric')
  t.notOk(cnpj('56989000019533'), 'a CNPJ of API Pix\'s own examples: its check digits are wrong')
})

t.test('isValidDocument and documentKind choose by length', async t => {
  t.equal(documentKind('52998224725'), 'CPF')
  t.equal(documentKind('11222333000181'), 'CNPJ')
  t.equal(documentKind('12ABC34501DE35'), 'CNPJ')
  t.equal(documentKind('52998224724'), null)
  t.equal(documentKind('5299822472A'), null, 'a CPF is digits only')
  t.equal(documentKind('123'), null)
  t.ok(isValidDocument('11144477735'))
  t.ok(isValidDocument('12ABC34501DE35'))
  t.notOk(isValidDocument('11111111111'))
  t.notOk(isValidDocument(''))
})

t.test('maskDocument', async t => {
  t.equal(maskDocument('52998224725'), '***.982.247-**')
  t.equal(maskDocument('11222333000181'), '**.222.333/0001-**')
  t.equal(maskDocument('12ABC34501DE35'), '**.ABC.345/01DE-**')
  t.equal(maskDocument('abc'), '***', 'unknown shapes are fully hidden')
  t.equal(maskDocument(''), '')
})

t.test('generated documents always validate and are reproducible', async t => {
  fc.assert(fc.property(fc.string(), seed => {
    const rng = createRng(seed)
    return isValidCpf(generateCpf(rng)) && isValidCnpj(generateCnpj(rng)) &&
      isValidCnpj(generateCnpj(rng, { alphanumeric: true }))
  }), { numRuns: 1000 })
  t.equal(generateCpf(createRng('seed')), generateCpf(createRng('seed')))
  t.match(generateCnpj(createRng(1)), /^\d{8}0001\d{2}$/)
  t.match(generateCnpj(createRng(1), { alphanumeric: true }), /^[0-9A-Z]{8}0001\d{2}$/)
})

t.test('a base of one repeated digit is drawn again', async t => {
  // 000000000 first (its check digits would make 00000000000), then 1, 2, ... 9.
  const draws = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]
  let i = 0
  t.equal(generateCpf({ next: () => draws[i++] }), '12345678909')
})
