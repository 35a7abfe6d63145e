/**
 * The vocabulary of Pix Automático's records in API Pix 2.9.0: the statuses, journeys and closing
 * codes of a recurrence (`rec`) and of a confirmation request (`solicrec`), and the shape of a
 * recurrence's terms. Types and lists only, importing nothing, so that the store's record schemas
 * (server/store/records.ts) describe exactly these types without an import circle; the rules that use
 * them are rec.ts, solicrec.ts and rec-lifecycle.ts, which re-export them.
 *
 * With the YAML's lines (bacen-pix-api-2.9.0.yaml): RecStatus 6532, RecBase 6670-6740 (vinculo,
 * calendario, valor), RecConfiguracao 6546, RecAtivacao 6475, RecEncerramento 6584, SolicRecStatus
 * 6787, DadosBancarios 5104.
 */

/** A São Paulo calendar day, `YYYY-MM-DD` (business-days.ts checks it). */
type IsoDate = string

export const PERIODICIDADES = ['SEMANAL', 'MENSAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL'] as const
export type Periodicidade = typeof PERIODICIDADES[number]

export const POLITICAS_RETENTATIVA = ['NAO_PERMITE', 'PERMITE_3R_7D'] as const
export type PoliticaRetentativa = typeof POLITICAS_RETENTATIVA[number]

export const REC_STATUSES = ['CRIADA', 'APROVADA', 'REJEITADA', 'EXPIRADA', 'CANCELADA'] as const
export type RecStatus = typeof REC_STATUSES[number]

export type RecDevedor = { cpf: string, nome: string } | { cnpj: string, nome: string }

export interface RecVinculo { objeto?: string, contrato: string, devedor: RecDevedor }

export interface RecCalendario { dataInicial: IsoDate, dataFinal?: IsoDate, periodicidade: Periodicidade }

/** At most one of the two: valorRec (fixed), valorMinimoRecebedor (floor of the payer's maximum), neither (free). */
export interface RecValor { valorRec?: string, valorMinimoRecebedor?: string }

/** What a recurrence's receiver decides, as API Pix writes it: stored with the recurrence, echoed in RecGerada. */
export interface RecTerms {
  vinculo: RecVinculo
  calendario: RecCalendario
  valor: RecValor
  politicaRetentativa: PoliticaRetentativa
  recebedor?: { convenio?: string }
  loc?: number
  ativacao?: { dadosJornada: { txid: string } }
}

export const JORNADAS = ['JORNADA_1', 'JORNADA_2', 'JORNADA_3', 'JORNADA_4'] as const
export type Jornada = typeof JORNADAS[number]
export const TIPOS_JORNADA = [...JORNADAS, 'AGUARDANDO_DEFINICAO'] as const
export type TipoJornada = typeof TIPOS_JORNADA[number]

/** The `ativacao` of a recurrence: `AGUARDANDO_DEFINICAO` until a journey approves it. */
export interface RecAtivacao { tipoJornada: TipoJornada, dadosJornada?: { txid: string } }

export const ATORES = ['USUARIO_RECEBEDOR', 'PSP_RECEBEDOR', 'PSP_PAGADOR', 'USUARIO_PAGADOR'] as const
/** Who acts on a record (API Pix's `solicitante` of a cancellation). */
export type Ator = typeof ATORES[number]

export const REC_REJEICAO_CODIGOS = ['AP13', 'AP14'] as const
export const REC_CANCELAMENTO_CODIGOS = ['ACCL', 'CPCL', 'DCSD', 'ERSL', 'FRUD', 'PCFD', 'SLCR', 'SLDB'] as const

export interface Cancelamento<C extends string> { solicitante: Ator, codigo: C, descricao: string }
export interface Rejeicao<C extends string> { codigo: C, descricao: string }

export type RecEncerramento =
  | { rejeicao: Rejeicao<typeof REC_REJEICAO_CODIGOS[number]> }
  | { cancelamento: Cancelamento<typeof REC_CANCELAMENTO_CODIGOS[number]> }

export const SOLICREC_STATUSES = ['CRIADA', 'ENVIADA', 'RECEBIDA', 'REJEITADA', 'ACEITA', 'EXPIRADA', 'CANCELADA'] as const
export type SolicRecStatus = typeof SOLICREC_STATUSES[number]

/** The payer's account a confirmation request is sent to (DadosBancarios and exactly one of cpf, cnpj). */
export type SolicRecDestinatario = { conta: string, ispbParticipante: string, agencia?: string } & ({ cpf: string } | { cnpj: string })
