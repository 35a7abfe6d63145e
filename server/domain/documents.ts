// CPF and CNPJ check digits. Inputs are formatting-free: "52998224725", never "529.982.247-25";
// the API takes digits only, so a dot or dash is an invalid document, not something to clean up.
import { randomInt, type Rng } from './ids.js'

export type DocumentKind = 'CPF' | 'CNPJ'

const CPF = /^\d{11}$/
// From July 2026 the Receita Federal issues alphanumeric CNPJs: 12 characters [0-9A-Z] (root and
// branch) followed by 2 numeric check digits. Numeric CNPJs stay valid and are a subset of this form.
const CNPJ = /^[0-9A-Z]{12}\d{2}$/

const CNPJ_WEIGHTS = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]

/**
 * Modulo-11 check digit shared by CPF and CNPJ: weighted sum, remainder below 2 gives 0,
 * otherwise 11 - remainder. A character's value is its char code minus 48, which is the digit
 * itself for 0-9 and 17-42 for A-Z (the rule of the alphanumeric CNPJ).
 */
function checkDigit (chars: string, weights: readonly number[]): number {
  let sum = 0
  for (let i = 0; i < chars.length; i++) sum += (chars.charCodeAt(i) - 48) * weights[i]
  const remainder = sum % 11
  return remainder < 2 ? 0 : 11 - remainder
}

// CPF weights run 10..2 for the first digit and 11..2 for the second.
const CPF_WEIGHTS = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]

function cpfCheckDigits (base: string): string {
  const d1 = checkDigit(base, CPF_WEIGHTS.slice(1))
  const d2 = checkDigit(base + d1, CPF_WEIGHTS)
  return `${d1}${d2}`
}

function cnpjCheckDigits (base: string): string {
  const d1 = checkDigit(base, CNPJ_WEIGHTS.slice(1))
  const d2 = checkDigit(base + d1, CNPJ_WEIGHTS)
  return `${d1}${d2}`
}

// 000.000.000-00, 111.111.111-11... satisfy the check-digit arithmetic yet are never issued.
function isRepeated (s: string): boolean {
  return /^(.)\1*$/.test(s)
}

export function isValidCpf (s: string): boolean {
  return CPF.test(s) && !isRepeated(s) && cpfCheckDigits(s.slice(0, 9)) === s.slice(9)
}

/** Numeric (11222333000181) and alphanumeric (12ABC34501DE35) CNPJs; letters upper-case only. */
export function isValidCnpj (s: string): boolean {
  return CNPJ.test(s) && !isRepeated(s) && cnpjCheckDigits(s.slice(0, 12)) === s.slice(12)
}

/** The JSON Schema format of a CPF or CNPJ with valid check digits (registered in schemas/compilers.ts, in the form the family takes). */
export const DOCUMENT_FORMAT = 'cpf-cnpj'

/**
 * The document formats of the API Pix dialect's schemas, by name, for `ajv.addFormat(name, { type:
 * 'string', validate })`. API Pix 2.9.0 writes every `cnpj` as `^[0-9A-Z]{14}$`, so the alphanumeric
 * CNPJ is accepted there; the format adds what a pattern cannot say: numeric check digits, and that
 * they are right. The gateway's families keep their own rules (schemas/common.ts DOCUMENT_FORMAT,
 * and the digits-only `devedor.cnpj` of cob.ts).
 */
export const API_PIX_DOCUMENT_FORMATS = { 'api-pix-cpf': isValidCpf, 'api-pix-cnpj': isValidCnpj } as const

/** Which document a string is by its length (11: CPF, 14: CNPJ), or null when it is neither valid. */
export function documentKind (s: string): DocumentKind | null {
  if (s.length === 11) return isValidCpf(s) ? 'CPF' : null
  if (s.length === 14) return isValidCnpj(s) ? 'CNPJ' : null
  return null
}

/**
 * How a field writes a CNPJ: digits only (the gateway's families as docs/gateway.md describes them), or
 * the 2026 alphanumeric form too (API Pix; the gateway's families with `--alphanumeric-cnpj enabled`).
 */
export type CnpjForm = 'digits' | 'alphanumeric'

/** The CNPJ form of the gateway's families under the `alphanumericCnpj` setting (docs/assumptions.md). */
export const gatewayCnpjForm = (setting: 'enabled' | 'disabled'): CnpjForm => setting === 'enabled' ? 'alphanumeric' : 'digits'

/** `details.document`, `payer.document`, `splits[].document`, `creditorDocument`: a valid CPF or CNPJ, in the form given. */
export function isValidDocument (s: string, cnpj: CnpjForm = 'alphanumeric'): boolean {
  return documentKind(s) !== null && (cnpj === 'alphanumeric' || /^\d+$/.test(s))
}

/**
 * The document as shown to a counterparty. CPF follows the mask of the central bank's DICT and
 * payment receipts: the first three and the two check digits hidden, `***.982.247-**`. CNPJ
 * hides the same extremities of its root and the check digits, keeping the branch readable,
 * `**.222.333/0001-**` (a CNPJ is public, but one mask style is easier for integrators to match).
 * Anything else is fully hidden, so a malformed input never leaks.
 */
export function maskDocument (s: string): string {
  if (CPF.test(s)) return `***.${s.slice(3, 6)}.${s.slice(6, 9)}-**`
  if (CNPJ.test(s)) return `**.${s.slice(2, 5)}.${s.slice(5, 8)}/${s.slice(8, 12)}-**`
  return '*'.repeat(s.length)
}

function randomDigits (rng: Rng, n: number): string {
  let out = ''
  for (let i = 0; i < n; i++) out += String(randomInt(rng, 10))
  return out
}

/** A valid CPF, digits only. */
export function generateCpf (rng: Rng): string {
  let base: string
  do base = randomDigits(rng, 9)
  while (isRepeated(base))
  return base + cpfCheckDigits(base)
}

/**
 * A valid CNPJ of a head office (branch 0001), digits only; with `alphanumeric` the 8-character
 * root mixes digits and letters as the 2026 format allows.
 */
export function generateCnpj (rng: Rng, options: { alphanumeric?: boolean } = {}): string {
  const alphabet = options.alphanumeric === true ? '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ' : '0123456789'
  let root = ''
  for (let i = 0; i < 8; i++) root += alphabet[randomInt(rng, alphabet.length)]
  const base = root + '0001'
  return base + cnpjCheckDigits(base)
}
