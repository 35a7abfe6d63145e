// PIX keys. The gateway names key types three ways: cash-out `details.keyType` (docs/gateway.md §2.4), the
// central-bank directory (docs/gateway.md §2.3, the DICT's own types) and cash-in `splits[].pixKeyType` (2.6).
// Each has its own accepted formats; normalizeKey maps any of them to the directory's canonical
// form, which is how keys are stored and looked up.
import { isValidCnpj, isValidCpf, isValidDocument, type CnpjForm } from './documents.js'

export type CashOutKeyType = 'DOCUMENT' | 'EMAIL' | 'PHONE' | 'RANDOM'
export type DirectoryKeyType = 'CPF' | 'CNPJ' | 'EMAIL' | 'PHONE' | 'EVP'
export type SplitKeyType = 'EMAIL' | 'PHONE' | 'CPF' | 'CNPJ' | 'RANDOM'
export type KeyType = CashOutKeyType | DirectoryKeyType | SplitKeyType

export const CASH_OUT_KEY_TYPES: readonly CashOutKeyType[] = ['DOCUMENT', 'EMAIL', 'PHONE', 'RANDOM']
export const DIRECTORY_KEY_TYPES: readonly DirectoryKeyType[] = ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP']
export const SPLIT_KEY_TYPES: readonly SplitKeyType[] = ['EMAIL', 'PHONE', 'CPF', 'CNPJ', 'RANDOM']

// The DICT caps e-mail keys at 77 characters (also the cob `chave` limit).
const EMAIL_MAX = 77
// Local part of printable specials, no leading, trailing or doubled dot; domain of at least two
// labels. Stricter than RFC 5322 on purpose: quoted local parts and IP literals are not PIX keys.
const EMAIL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/
// Brazilian area codes (DDD) run 11 to 99; the subscriber number has 8 (landline) or 9 (mobile) digits.
const NATIONAL_PHONE = /^(?:1[1-9]|[2-9]\d)\d{8,9}$/
const DIRECTORY_PHONE = /^\+55[1-9]\d{9,10}$/
const UUID_HYPHENATED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const UUID_COMPACT = /^[0-9a-f]{32}$/i

function isValidEmail (key: string): boolean {
  return key.length <= EMAIL_MAX && EMAIL.test(key)
}

/** `details.key` against `details.keyType` of a cash-out; a DOCUMENT key's CNPJ in the form `cnpj` allows. */
export function isValidCashOutKey (keyType: CashOutKeyType, key: string, cnpj: CnpjForm = 'alphanumeric'): boolean {
  switch (keyType) {
    // The same rule as details.document, the 2026 alphanumeric CNPJ included where the form allows it.
    case 'DOCUMENT': return isValidDocument(key, cnpj)
    case 'EMAIL': return isValidEmail(key)
    case 'PHONE': return NATIONAL_PHONE.test(key)
    case 'RANDOM': return UUID_HYPHENATED.test(key) || UUID_COMPACT.test(key)
    default: return false // a keyType outside the enum, from an unvalidated caller
  }
}

/** The type of a directory key (`pixKey` of `POST /dict/pix`, `chave` of a cob), or null if it is none. */
export function detectDirectoryKeyType (key: string): DirectoryKeyType | null {
  if (key.includes('@')) return isValidEmail(key) ? 'EMAIL' : null
  if (key.startsWith('+')) return DIRECTORY_PHONE.test(key) ? 'PHONE' : null
  if (UUID_HYPHENATED.test(key)) return 'EVP'
  if (isValidCpf(key)) return 'CPF'
  if (isValidCnpj(key)) return 'CNPJ'
  return null
}

/** `splits[].pixKey` against `splits[].pixKeyType`; a PHONE split key may carry +55 or not. */
export function isValidSplitKey (type: SplitKeyType, key: string): boolean {
  switch (type) {
    case 'EMAIL': return isValidEmail(key)
    case 'PHONE': return NATIONAL_PHONE.test(key) || DIRECTORY_PHONE.test(key)
    case 'CPF': return isValidCpf(key)
    case 'CNPJ': return isValidCnpj(key)
    case 'RANDOM': return UUID_HYPHENATED.test(key) || UUID_COMPACT.test(key)
    default: return false
  }
}

/**
 * A key, already valid for its type, in the directory's canonical form: phone `+55` + DDD +
 * number, e-mail and EVP lower-case, EVP hyphenated. Documents are unchanged. Two spellings of
 * the same key normalize to the same string, so a cash-out key finds its directory entry.
 */
export function normalizeKey (keyType: KeyType, key: string): string {
  switch (keyType) {
    case 'PHONE': return key.startsWith('+') ? key : `+55${key}`
    case 'EMAIL': return key.toLowerCase()
    case 'RANDOM':
    case 'EVP': {
      const hex = key.replace(/-/g, '').toLowerCase()
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
    }
    default: return key
  }
}
