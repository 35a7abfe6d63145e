import t from 'tap'
import fc from 'fast-check'
import {
  documentKind, generateCnpj, generateCpf, isValidCnpj, isValidCpf, isValidDocument, maskDocument
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
