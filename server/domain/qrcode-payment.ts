// What a payer's provider can do with a parsed BR Code before any money moves (docs/gateway.md §2.5, 7.3).
import type { BrCode } from './brcode.js'
import { detectDirectoryKeyType } from './keys.js'

const COMPACT_EVP = /^[0-9a-f]{32}$/i

/**
 * Whether a static code's key (tag 26-01) has the shape of some directory key type: CPF, CNPJ,
 * e-mail, `+55` phone or EVP (hyphenated or compact). A provider refuses a code whose key no type
 * can be; it does not need the directory for that.
 */
export function hasKeyShape (key: string): boolean {
  return COMPACT_EVP.test(key) || detectDirectoryKeyType(key) !== null
}

/**
 * Why a code cannot even be attempted, or null. A dynamic code (tag 26-25) names where its payload
 * is: only the issuer can serve it, so whether it is payable is the charge lookup's question. A
 * static code's key must have the shape of some key type.
 */
export function staticCodeProblem (code: BrCode): string | null {
  if (code.key === undefined) return null // a dynamic code: parseBrCode guarantees one of the two
  return hasKeyShape(code.key) ? null : `a chave "${code.key}" do QR Code não tem o formato de nenhum tipo de chave PIX`
}

/**
 * The amount a payer reads in the code itself: a static code's tag 54 (none: the payer names it). A
 * dynamic code's amount is the payload's at its location, read when it is paid, as BACEN's dynamic
 * examples carry no tag 54 (docs/assumptions.md, Charges); one that has a tag 54 anyway (a code
 * of an older data file) is paid the payload's amount all the same.
 */
export function codeAmount (code: BrCode): number | undefined {
  return code.location === undefined ? code.amountCents : undefined
}
