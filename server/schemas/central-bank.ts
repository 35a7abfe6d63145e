import { Type, type Static } from '@sinclair/typebox'
import { StringEnum } from './common.js'
import { CobResponse, PixView } from './payins.js'

/**
 * The reads of BACEN's API Pix 2.9.0 that the central-bank family serves besides the gateway's own
 * operations: the cob list (`GET /cob`), a received PIX (`GET /pix/{e2eid}`) and their list
 * (`GET /pix`). Names and paging follow BACEN (`parametros.paginacao`, `paginacao.paginaAtual`).
 */

export const COB_STATUSES = ['ATIVA', 'CONCLUIDA', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP'] as const

// BACEN's Inicio and Fim are RFC 3339 date-times; checked as such by the service (parseInstant).
export const Instant = (description: string) => Type.String({ minLength: 1, maxLength: 64, description })

export const paging = {
  'paginacao.paginaAtual': Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0, description: 'page to return, from 0' })),
  'paginacao.itensPorPagina': Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'items per page' })),
}

const documentFilters = {
  cpf: Type.Optional(Type.String({ pattern: '^\\d{11}$', description: 'not with cnpj' })),
  cnpj: Type.Optional(Type.String({ pattern: '^[0-9A-Z]{14}$', description: 'not with cpf' })),
}

export const CobListQuery = Type.Object({
  inicio: Instant('RFC 3339: charges created at or after it'),
  fim: Instant('RFC 3339: charges created at or before it'),
  ...documentFilters,
  locationPresente: Type.Optional(Type.Boolean({ description: 'every cob of the sandbox has a location' })),
  status: Type.Optional(StringEnum(COB_STATUSES)),
  ...paging,
})
export type CobListQueryT = Static<typeof CobListQuery>

export const PixListQuery = Type.Object({
  inicio: Instant('RFC 3339: PIX received at or after it'),
  fim: Instant('RFC 3339: PIX received at or before it'),
  txid: Type.Optional(Type.String({ pattern: '^[a-zA-Z0-9]{1,35}$' })),
  txIdPresente: Type.Optional(Type.Boolean()),
  devolucaoPresente: Type.Optional(Type.Boolean()),
  ...documentFilters,
  ...paging,
})
export type PixListQueryT = Static<typeof PixListQuery>

export const Paginacao = Type.Object({
  paginaAtual: Type.Integer(),
  itensPorPagina: Type.Integer(),
  quantidadeDePaginas: Type.Integer(),
  quantidadeTotalDeItens: Type.Integer(),
})

const echoed = { inicio: Type.String(), fim: Type.String(), cpf: Type.Optional(Type.String()), cnpj: Type.Optional(Type.String()), paginacao: Paginacao }

export const CobList = Type.Object({
  parametros: Type.Object({ ...echoed, locationPresente: Type.Optional(Type.Boolean()), status: Type.Optional(Type.String()) }),
  cobs: Type.Array(CobResponse),
})

export const PixList = Type.Object({
  parametros: Type.Object({ ...echoed, txid: Type.Optional(Type.String()), txIdPresente: Type.Optional(Type.Boolean()), devolucaoPresente: Type.Optional(Type.Boolean()) }),
  pix: Type.Array(PixView),
})

export const PixParams = Type.Object({ e2eid: Type.String({ pattern: '^[a-zA-Z0-9]{32}$', description: 'endToEndId of a PIX the account received' }) })
