// The immediate charge (cob) of the central-bank family: the rules on its fields that creation
// (docs/gateway.md §2.8, 7.7) and revision (BACEN's PATCH /cob/{txid}) share, and what a revision changes.
import { isValidCnpj, isValidCpf } from './documents.js'
import { detectDirectoryKeyType } from './keys.js'
import { parseDecimalString } from './money.js'

export interface Devedor { cpf?: string, cnpj?: string, nome: string }
export interface InfoAdicional { nome: string, valor: string }

/** The fields of a cob a receiver sets, as stored. */
export interface CobFields {
  expiracao: number
  devedor?: Devedor
  original: string
  modalidadeAlteracao: number
  chave?: string
  solicitacaoPagador?: string
  infoAdicionais?: InfoAdicional[]
}

/**
 * A revision as BACEN's CobRevisada allows it: every field optional; `loc` names the charge's own location,
 * and the receiver cancels the charge with `status`.
 */
export interface CobRevision {
  calendario?: { expiracao?: number }
  devedor?: Devedor
  loc?: { id: number }
  status?: 'REMOVIDA_PELO_USUARIO_RECEBEDOR'
  valor?: { original?: string, modalidadeAlteracao?: number }
  chave?: string
  solicitacaoPagador?: string
  infoAdicionais?: InfoAdicional[]
}

/** A cob as a receiver creates it (docs/gateway.md §2.8: PUT /cob/{txid}; BACEN's POST /cob): a revision's fields, the amount required. */
export interface CobRequest {
  calendario: { expiracao?: number }
  devedor?: Devedor
  valor: { original: string, modalidadeAlteracao?: number }
  chave?: string
  solicitacaoPagador?: string
  infoAdicionais?: InfoAdicional[]
}

/**
 * How a dialect writes `devedor.cnpj`: the gateway's central-bank family digits only (docs/gateway.md
 * §7.7), API Pix `^[0-9A-Z]{14}$`, the alphanumeric CNPJ included; check digits right in both.
 */
export type CnpjForm = 'digits' | 'alphanumeric'

/** One message per invalid field (Portuguese, as the gateway answers), empty when all hold. */
export function cobFieldProblems (f: { original?: string, devedor?: Devedor, chave?: string }, cnpj: CnpjForm = 'digits'): string[] {
  const problems: string[] = []
  if (f.original !== undefined && !parseDecimalString(f.original, 'exactly-2').ok) problems.push('valor.original deve ser um decimal com 2 casas, ex.: "10.00"')
  const devedor = f.devedor
  if (devedor) {
    if (devedor.cpf !== undefined && devedor.cnpj !== undefined) problems.push('devedor deve ter cpf ou cnpj, não ambos')
    else if (devedor.cpf === undefined && devedor.cnpj === undefined) problems.push('devedor.cpf ou devedor.cnpj é obrigatório')
    if (devedor.cpf !== undefined && !(/^\d{11}$/.test(devedor.cpf) && isValidCpf(devedor.cpf))) problems.push('devedor.cpf inválido: 11 dígitos com dígitos verificadores corretos')
    // docs/gateway.md §7.7: digits only, so the 2026 alphanumeric CNPJ (accepted by the standard family) is refused
    // there; API Pix takes it (isValidCnpj reads both forms).
    if (devedor.cnpj !== undefined && !((cnpj === 'digits' ? /^\d{14}$/ : /^[0-9A-Z]{14}$/).test(devedor.cnpj) && isValidCnpj(devedor.cnpj))) {
      problems.push(cnpj === 'digits' ? 'devedor.cnpj inválido: 14 dígitos com dígitos verificadores corretos' : 'devedor.cnpj inválido: 14 dígitos ou letras maiúsculas com dígitos verificadores corretos')
    }
  }
  if (f.chave !== undefined && detectDirectoryKeyType(f.chave) === null) problems.push('chave não é uma chave PIX válida (telefone +55, e-mail, CPF, CNPJ ou EVP)')
  return problems
}

/**
 * The cob after a revision, and whether anything really changed: BACEN increments `revisao` on a
 * change of the charge only, so a PATCH that repeats the current values is not a revision.
 * A devedor or the infoAdicionais list is replaced whole, as BACEN's examples send them.
 */
export function revisedCob (current: CobFields, r: CobRevision): { next: CobFields, changed: boolean } {
  const next: CobFields = {
    ...current,
    ...(r.calendario?.expiracao !== undefined ? { expiracao: r.calendario.expiracao } : {}),
    ...(r.devedor !== undefined ? { devedor: { ...r.devedor } } : {}),
    ...(r.valor?.original !== undefined ? { original: r.valor.original } : {}),
    ...(r.valor?.modalidadeAlteracao !== undefined ? { modalidadeAlteracao: r.valor.modalidadeAlteracao } : {}),
    ...(r.chave !== undefined ? { chave: r.chave } : {}),
    ...(r.solicitacaoPagador !== undefined ? { solicitacaoPagador: r.solicitacaoPagador } : {}),
    ...(r.infoAdicionais !== undefined ? { infoAdicionais: r.infoAdicionais.map(i => ({ nome: i.nome, valor: i.valor })) } : {}),
  }
  return { next, changed: canonical(next) !== canonical(current) }
}

function canonical (f: CobFields): string {
  const devedor = f.devedor ? { cpf: f.devedor.cpf, cnpj: f.devedor.cnpj, nome: f.devedor.nome } : undefined
  return JSON.stringify([f.expiracao, devedor, f.original, f.modalidadeAlteracao, f.chave, f.solicitacaoPagador, f.infoAdicionais?.map(i => [i.nome, i.valor])])
}
