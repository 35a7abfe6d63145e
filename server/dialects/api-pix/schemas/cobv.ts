import { Type, type TSchema } from '@sinclair/typebox'
import { IsoDate, StringEnum } from '../../../schemas/common.js'
import { COB_STATUSES, CobListQuery, CobList } from '../../../schemas/central-bank.js'
import { PixView } from '../../../schemas/payins.js'
import { NewestFirstQuery, NextCursor } from '../../../schemas/sandbox.js'
import { ApiPixCobParams, ApiPixCobQuery, ApiPixLocation } from './cob.js'

/**
 * The due charge of BACEN's API Pix 2.9.0 (tag CobV): CobVSolicitada and CobVRevisada, and the answer
 * CobVGerada / CobVCompleta. The structure is checked here; `calendario` and `valor` are checked by
 * server/domain/cobv.ts, which answers in the words of API Pix's own list of violations (a modalidade
 * may come as the same integer in a string, as API Pix's own example sends it).
 */

export const ApiPixCobVParams = ApiPixCobParams
export const ApiPixCobVQuery = ApiPixCobQuery

const Decimal = (description: string) => Type.String({ description: `${description}: \\d{1,10}\\.\\d{2}` })
/** A modalidade: an integer, or the same integer as a string ("2", as API Pix's example cobBody1 writes it). */
const Modalidade = (max: number) => Type.Union([Type.Integer(), Type.String()], { description: `1 to ${max}` })
const Rate = (max: number, description: string) => Type.Object({ modalidade: Modalidade(max), valorPerc: Decimal(description) })

const Calendario = Type.Object({
  dataDeVencimento: Type.String({ description: 'YYYY-MM-DD, not before the charge\'s creation; on a weekend or national holiday it moves to the next business day' }),
  validadeAposVencimento: Type.Optional(Type.Integer({ description: 'calendar days after the (moved) due date the charge can still be paid; 30 when absent' })),
})

const Valor = Type.Object({
  original: Decimal('the nominal amount'),
  multa: Type.Optional(Rate(2, '1: a fixed amount, 2: a percentage, once, when paid after the due date')),
  juros: Type.Optional(Rate(8, '1-4 per calendar day late (amount, % per day, month, year), 5-8 per business day')),
  abatimento: Type.Optional(Rate(2, '1: a fixed amount, 2: a percentage of original')),
  desconto: Type.Optional(Type.Object({
    modalidade: Modalidade(6),
    valorPerc: Type.Optional(Decimal('3-6: the amount or percentage per day of anticipation')),
    descontoDataFixa: Type.Optional(Type.Array(Type.Object({ data: Type.String({ description: 'YYYY-MM-DD, at most the due date' }), valorPerc: Decimal('1: an amount, 2: a percentage, until data') }), { description: '1 and 2: up to 3 dated discounts' })),
  })),
})

/** DadosDevedor: a person (cpf) or a company (cnpj, the alphanumeric form too), with optional contact and address. */
const Devedor = Type.Object({
  cpf: Type.Optional(Type.String({ description: '11 digits, check digits right; not with cnpj' })),
  cnpj: Type.Optional(Type.String({ description: '14 digits or upper-case letters (the alphanumeric CNPJ), check digits right; not with cpf' })),
  nome: Type.String({ minLength: 1, maxLength: 200 }),
  email: Type.Optional(Type.String({ maxLength: 200 })),
  logradouro: Type.Optional(Type.String({ maxLength: 200 })),
  cidade: Type.Optional(Type.String({ maxLength: 200 })),
  uf: Type.Optional(Type.String({ maxLength: 2 })),
  cep: Type.Optional(Type.String({ maxLength: 8 })),
})

const InfoAdicional = Type.Object({ nome: Type.String({ minLength: 1, maxLength: 50 }), valor: Type.String({ minLength: 1, maxLength: 200 }) })

const LocId = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'a location of the account (POST /loc), of tipoCob cobv, serving no other charge; on a revision, its own' })

const fields = {
  devedor: Devedor,
  chave: Type.String({ minLength: 1, maxLength: 77, description: 'the receiver\'s key' }),
  solicitacaoPagador: Type.Optional(Type.String({ maxLength: 140 })),
  infoAdicionais: Type.Optional(Type.Array(InfoAdicional, { maxItems: 50 })),
  loc: Type.Optional(Type.Object({ id: LocId })),
}

/** CobVSolicitada: calendario, devedor, valor and chave required. */
export const ApiPixCobVBody = Type.Object({ calendario: Calendario, valor: Valor, ...fields })

/** CobVRevisada: every field optional; the receiver removes the charge with the status, alone. */
export const ApiPixCobVPatchBody = Type.Object({
  calendario: Type.Optional(Type.Partial(Calendario)),
  valor: Type.Optional(Type.Partial(Valor)),
  devedor: Type.Optional(fields.devedor),
  chave: Type.Optional(fields.chave),
  solicitacaoPagador: fields.solicitacaoPagador,
  infoAdicionais: fields.infoAdicionais,
  loc: fields.loc,
  status: Type.Optional(StringEnum(['REMOVIDA_PELO_USUARIO_RECEBEDOR'] as const, { description: 'the receiver removes the charge' })),
})

const Rated = Type.Object({ modalidade: Type.Integer(), valorPerc: Type.String() })

/** CobVValor as stored: modalidades as integers. */
const ValorView = Type.Object({
  original: Type.String(),
  multa: Type.Optional(Rated),
  juros: Type.Optional(Rated),
  abatimento: Type.Optional(Rated),
  desconto: Type.Optional(Type.Object({
    modalidade: Type.Integer(),
    valorPerc: Type.Optional(Type.String()),
    descontoDataFixa: Type.Optional(Type.Array(Type.Object({ data: Type.String(), valorPerc: Type.String() }))),
  })),
})

/** DadosRecebedor: the account, with the address the sandbox gives every receiver (docs/assumptions.md). */
const Recebedor = Type.Object({
  cpf: Type.Optional(Type.String()),
  cnpj: Type.Optional(Type.String()),
  nome: Type.String(),
  logradouro: Type.String(),
  cidade: Type.String(),
  uf: Type.String(),
  cep: Type.String(),
})

const CobVLoc = Type.Object({
  id: Type.Integer(),
  location: ApiPixLocation,
  tipoCob: StringEnum(['cobv'] as const),
  criacao: IsoDate(),
  txid: Type.String(),
})

/** CobVGerada and CobVCompleta: `loc`, `location` and `pixCopiaECola` while the cobv has a location; `pix` once paid. */
export const ApiPixCobV = Type.Object({
  calendario: Type.Object({ criacao: IsoDate(), dataDeVencimento: Type.String(), validadeAposVencimento: Type.Integer() }),
  txid: Type.String(),
  revisao: Type.Integer(),
  loc: Type.Optional(CobVLoc),
  location: Type.Optional(ApiPixLocation),
  status: StringEnum(COB_STATUSES),
  devedor: Devedor,
  recebedor: Recebedor,
  valor: ValorView,
  chave: Type.String(),
  solicitacaoPagador: Type.Optional(Type.String()),
  infoAdicionais: Type.Optional(Type.Array(InfoAdicional)),
  pixCopiaECola: Type.Optional(Type.String({ maxLength: 512, description: 'the BR Code, with no amount (it depends on the day); its tag 26-25 is `location`' })),
  pix: Type.Optional(Type.Array(PixView)),
})

/** GET /cobv: GET /cob's parameters and the batch (lotecobv) the cobvs came from. */
export const ApiPixCobVListQuery = Type.Object({
  ...CobListQuery.properties,
  loteCobVId: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'the batch (lotecobv) that created them' })),
})

export const ApiPixCobVList = Type.Object({
  parametros: Type.Object({ ...(CobList.properties.parametros.properties as Record<string, TSchema>), loteCobVId: Type.Optional(Type.Integer()) }),
  cobs: Type.Array(ApiPixCobV),
})

/** A cobv as the control plane shows it (`GET /__sandbox/cobvs`): its account, its transaction and the amount due today. */
export const SandboxCobVView = Type.Object({
  ...ApiPixCobV.properties,
  accountId: Type.Integer(),
  chargeId: Type.String({ description: 'The transaction (GET /__sandbox/transactions/{id}) of the charge' }),
  valorHoje: Type.Union([Type.String(), Type.Null()], { description: 'What a payer pays today in São Paulo (sandbox time), fine, interest, rebate and discount applied; null when it cannot be paid today (paid, removed, past its validity)' }),
})

export const SandboxCobVListQuery = NewestFirstQuery('cobvs')

export const SandboxCobVList = Type.Object({ cobvs: Type.Array(SandboxCobVView, { description: 'the last made first' }), nextCursor: NextCursor('cobvs') })
