import { Type, type Static, type TBoolean, type TOptional } from '@sinclair/typebox'
import { StringEnum } from '../../schemas/common.js'

/**
 * The bodies, parameters and answers of Efí's own Pix routes (docs/efi.md), as Efí's documentation and
 * its SDKs' schemas (sdk-node-apis-efi 2.0.1) describe them.
 */

const Valor = Type.String({ pattern: '^\\d{1,10}\\.\\d{2}$', description: 'BRL with two decimals, e.g. "12.34"' })
const Key = Type.String({ minLength: 1, maxLength: 77 })
const Instant = Type.String({ format: 'date-time' })

export const EnvioParams = Type.Object({
  idEnvio: Type.String({ pattern: '^[a-zA-Z0-9]{1,35}$', description: 'The client\'s id of the pay-out: unique per account among its pay-outs' }),
})

const Pagador = Type.Object({
  chave: Type.String({ minLength: 1, maxLength: 77, description: 'A key of the authenticated account, with an API Pix webhook (PUT /v2/webhook/:chave)' }),
  infoPagador: Type.Optional(Type.String({ maxLength: 140 })),
})

const ContaBanco = Type.Object({
  nome: Type.String({ minLength: 1, maxLength: 200 }),
  cpf: Type.Optional(Type.String({ pattern: '^[0-9]{11}$' })),
  cnpj: Type.Optional(Type.String({ pattern: '^[0-9]{14}$' })),
  codigoBanco: Type.String({ pattern: '^[0-9]{8}$', description: 'ISPB of the receiver\'s institution' }),
  agencia: Type.String({ pattern: '^[0-9]{1,4}$', description: 'Branch, without its check digit' }),
  conta: Type.String({ pattern: '^[0-9]{1,20}$', description: 'Account with its check digit, no hyphen' }),
  tipoConta: StringEnum(['cacc', 'svgs'] as const),
})

export const PixSendBody = Type.Object({
  valor: Valor,
  pagador: Pagador,
  favorecido: Type.Object({
    chave: Type.Optional(Key),
    cpf: Type.Optional(Type.String({ pattern: '^[0-9]{11}$', description: 'With chave: the key\'s holder must have this document' })),
    cnpj: Type.Optional(Type.String({ pattern: '^[0-9]{14}$', description: 'With chave: the key\'s holder must have this document' })),
    contaBanco: Type.Optional(ContaBanco),
  }, { description: 'Exactly one of chave and contaBanco' }),
})
export type PixSendBodyType = Static<typeof PixSendBody>

export const PixQrCodePayBody = Type.Object({
  pagador: Pagador,
  pixCopiaECola: Type.String({ minLength: 1, maxLength: 1000, description: 'The BR Code to pay: its amount is the code\'s (or its charge\'s)' }),
})
export type PixQrCodePayBodyType = Static<typeof PixQrCodePayBody>

const EnvioStatus = StringEnum(['EM_PROCESSAMENTO', 'REALIZADO', 'NAO_REALIZADO'] as const)

export const PixSent = Type.Object({
  idEnvio: Type.String(),
  e2eId: Type.String(),
  endToEndId: Type.String({ description: 'The same as e2eId (sdk-node-apis-efi 2.0.1 reads this name)' }),
  valor: Type.String(),
  horario: Type.Object({ solicitacao: Instant }),
  status: Type.Literal('EM_PROCESSAMENTO'),
})

/** A devolução received on a sent PIX (API Pix's devolução, its rtrId as its id). */
const Devolucao = Type.Object({
  id: Type.String(),
  rtrId: Type.String(),
  valor: Type.String(),
  horario: Type.Object({ solicitacao: Instant, liquidacao: Instant }),
  status: Type.Literal('DEVOLVIDO'),
})

const Identificacao = Type.Object({ nome: Type.String(), cpf: Type.Optional(Type.String()), cnpj: Type.Optional(Type.String()) })

export const PixSentDetail = Type.Object({
  endToEndId: Type.String(),
  idEnvio: Type.String(),
  valor: Type.String(),
  chave: Type.String({ description: 'The payer\'s key (pagador.chave)' }),
  status: EnvioStatus,
  infoPagador: Type.Optional(Type.String()),
  horario: Type.Object({ solicitacao: Instant, liquidacao: Type.Optional(Instant) }),
  favorecido: Type.Object({
    chave: Type.Optional(Type.String()),
    identificacao: Type.Optional(Identificacao),
    contaBanco: Type.Optional(Type.Object({
      nome: Type.String(),
      cpf: Type.Optional(Type.String()),
      cnpj: Type.Optional(Type.String()),
      codigoBanco: Type.String(),
      agencia: Type.String(),
      conta: Type.String(),
      tipoConta: Type.String(),
    })),
  }),
  devolucoes: Type.Optional(Type.Array(Devolucao, { description: 'The devoluções received on it, when any' })),
})
export type PixSentDetailType = Static<typeof PixSentDetail>

export const E2eParams = Type.Object({ e2eId: Type.String({ pattern: '^[a-zA-Z0-9]{32}$' }) })

/** BACEN's Paginacao, as Efí's lists answer it. */
const Paginacao = Type.Object({ paginaAtual: Type.Integer(), itensPorPagina: Type.Integer(), quantidadeDePaginas: Type.Integer(), quantidadeTotalDeItens: Type.Integer() })

const Pagina = Type.Integer({ minimum: 0, maximum: 1_000_000 })
const PorPagina = Type.Integer({ minimum: 1, maximum: 1000 })

export const PixSentListQuery = Type.Object({
  inicio: Type.String({ minLength: 1, maxLength: 40 }),
  fim: Type.String({ minLength: 1, maxLength: 40 }),
  status: Type.Optional(StringEnum(['EM_PROCESSAMENTO', 'REALIZADO', 'NAO_REALIZADO', 'CONCLUIDA'] as const, { description: 'CONCLUIDA (as Efí\'s page writes it) reads as REALIZADO' })),
  devolucaoPresente: Type.Optional(Type.Boolean()),
  cpf: Type.Optional(Type.String({ pattern: '^[0-9]{11}$' })),
  cnpj: Type.Optional(Type.String({ pattern: '^[0-9]{14}$' })),
  'paginacao.paginaAtual': Type.Optional(Pagina),
  'paginacao.itensPorPagina': Type.Optional(PorPagina),
})
export type PixSentListQueryType = Static<typeof PixSentListQuery>

export const PixSentList = Type.Object({
  parametros: Type.Object({
    inicio: Type.String(),
    fim: Type.String(),
    status: Type.Optional(Type.String()),
    cpf: Type.Optional(Type.String()),
    cnpj: Type.Optional(Type.String()),
    paginacao: Paginacao,
  }),
  pix: Type.Array(PixSentDetail),
})

/** The callback of a sent PIX, posted to the payer key's webhook (`{webhookUrl}/pix`) as it settles or fails. */
export const PixSentCallback = Type.Object({
  pix: Type.Array(Type.Object({
    endToEndId: Type.String(),
    chave: Type.String(),
    tipo: Type.Literal('SOLICITACAO'),
    status: StringEnum(['REALIZADO', 'NAO_REALIZADO'] as const),
    valor: Type.String(),
    horario: Type.Union([Instant, Type.Null()]),
    infoPagador: Type.Optional(Type.String()),
    devolucoes: Type.Optional(Type.Array(Devolucao)),
    gnExtras: Type.Object({
      idEnvio: Type.String(),
      tarifa: Type.Optional(Type.String()),
      favorecido: Type.Optional(Type.Object({ nome: Type.String(), cpf: Type.Optional(Type.String()), cnpj: Type.Optional(Type.String()), codigoBanco: Type.String() })),
      erro: Type.Optional(Type.Object({ codigo: Type.String(), origem: Type.String(), motivo: Type.String() })),
    }),
  })),
})
export type PixSentCallbackType = Static<typeof PixSentCallback>

// ---- the account: balance, settings, random keys, key bucket ----

export const SaldoQuery = Type.Object({
  bloqueios: Type.Optional(Type.String({ maxLength: 10, description: 'true: also the amounts blocked (by MED and by court order)' })),
})

export const Saldo = Type.Object({
  saldo: Type.String(),
  bloqueios: Type.Optional(Type.Object({ judicial: Type.String(), med: Type.String(), total: Type.String() })),
})

const Flag = Type.Boolean()
const KeySettings = Type.Object({
  recebimento: Type.Optional(Type.Object({
    txidObrigatorio: Flag,
    recusarTipoPessoa: Type.Optional(StringEnum(['PF', 'PJ'] as const)),
    qrCodeEstatico: Type.Optional(Type.Object({ recusarTodos: Flag }, { additionalProperties: false })),
    documentoPagadorIgualDevedor: Type.Optional(Flag),
    webhook: Type.Optional(Type.Object({
      notificacao: Type.Optional(Type.Object({ tarifa: Flag, pagador: Flag }, { additionalProperties: false })),
      notificar: Type.Optional(Type.Object({ pixSemTxid: Flag }, { additionalProperties: false })),
    }, { additionalProperties: false })),
  }, { additionalProperties: false })),
  envio: Type.Optional(Type.Object({
    webhook: Type.Object({
      notificacao: Type.Object({ tarifa: Flag, favorecido: Flag }, { additionalProperties: false }),
    }, { additionalProperties: false }),
  }, { additionalProperties: false })),
}, { additionalProperties: false })

export const AccountConfig = Type.Object({
  pix: Type.Object({
    receberSemChave: Flag,
    chaves: Type.Optional(Type.Record(Type.String({ pattern: '^[a-zA-Z0-9\\-.@_+]{1,77}$' }), KeySettings)),
  }, { additionalProperties: false }),
}, { additionalProperties: false })
export type AccountConfigType = Static<typeof AccountConfig>

export const EvpCreated = Type.Object({ chave: Type.String() })
export const EvpList = Type.Object({ chaves: Type.Array(Type.String()) })
export const EvpParams = Type.Object({ chave: Type.String({ minLength: 1, maxLength: 77 }) })

const Balde = Type.Object({
  tiposChave: Type.Array(Type.String()),
  capacidade: Type.Integer(),
  fichasDisponiveis: Type.Integer(),
  taxaDeReposicaoFichas: Type.Integer(),
  periodoReposicaoEmSegundos: Type.Integer(),
})
export const KeyBuckets = Type.Object({ baldeA: Balde, baldeB: Balde })

// ---- QR codes ----

export const LocParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) })
export const LocQrCode = Type.Object({
  qrcode: Type.String({ description: 'The BR Code (copia e cola)' }),
  imagemQrcode: Type.String({ description: 'Its image: data:image/svg+xml;base64,...' }),
  linkVisualizacao: Type.String({ description: 'A page of this sandbox showing the charge, its image and its code' }),
})
export const ViewTokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 77 }) })
export const QrCodeDetailBody = Type.Object({ pixCopiaECola: Type.String({ minLength: 1, maxLength: 1000 }) })
const Masked = Type.Object({ nome: Type.String(), cpf: Type.Optional(Type.String()), cnpj: Type.Optional(Type.String()) })
export const QrCodeDetail = Type.Object({
  tipoCob: StringEnum(['cob', 'cobv'] as const),
  txid: Type.String(),
  revisao: Type.Integer(),
  calendario: Type.Object({
    criacao: Type.String(),
    apresentacao: Type.String(),
    expiracao: Type.Optional(Type.Integer()),
    dataDeVencimento: Type.Optional(Type.String()),
    validadeAposVencimento: Type.Optional(Type.Integer()),
  }),
  status: Type.String(),
  devedor: Type.Optional(Masked),
  recebedor: Masked,
  valor: Type.Object({ original: Type.String(), final: Type.Optional(Type.String({ description: 'What it asks to be paid now (a cobv\'s after fines or discounts); absent once it can no longer be paid' })) }),
  chave: Type.Optional(Type.String()),
  solicitacaoPagador: Type.Optional(Type.String()),
})

// ---- MED ----

export const InfracoesQuery = Type.Object({
  inicio: Type.String({ minLength: 1, maxLength: 40 }),
  fim: Type.String({ minLength: 1, maxLength: 40 }),
  'paginacao.paginaAtual': Type.Optional(Pagina),
  'paginacao.itensPorPagina': Type.Optional(PorPagina),
})
export type InfracoesQueryType = Static<typeof InfracoesQuery>

const Participante = Type.Object({ nomeParticipante: Type.String(), conta: Type.Optional(Type.Number()), nome: Type.String(), documento: Type.String() })
export const Infracao = Type.Object({
  idInfracao: Type.String(),
  endToEndId: Type.String(),
  protocolo: Type.Number(),
  dataTransacao: Type.String(),
  valor: Type.Number(),
  status: StringEnum(['ABERTA', 'ACEITA', 'CANCELADA_EFI', 'EM_DEFESA', 'REJEITADA'] as const),
  razao: Type.String(),
  tipoSituacao: Type.Optional(Type.String()),
  comentario: Type.Optional(Type.String()),
  defesa: Type.Optional(Type.String()),
  justificativaAnalista: Type.Optional(Type.String()),
  dadosAnalise: Type.Object({ abertura: Type.String(), prazoFinalizacao: Type.String(), recebimentoDefesa: Type.Optional(Type.String()), finalizacao: Type.Optional(Type.String()) }),
  origem: Participante,
  destino: Participante,
  criadoEm: Type.String(),
  atualizadoEm: Type.String(),
})
export type InfracaoType = Static<typeof Infracao>

export const InfracoesList = Type.Object({
  parametros: Type.Object({
    inicio: Type.String(),
    fim: Type.String(),
    paginacao: Paginacao,
  }),
  infracoes: Type.Array(Infracao),
})

export const InfracaoParams = Type.Object({ idInfracao: Type.String({ format: 'uuid' }) })
export const DefesaBody = Type.Object({
  analise: StringEnum(['aceito', 'rejeitado'] as const, { description: 'aceito: the account accepts the claim and the money goes back; rejeitado: it contests it' }),
  justificativa: Type.String({ minLength: 1, maxLength: 1000 }),
})

// ---- webhook resend ----

export const ResendBody = Type.Object({
  tipo: StringEnum(['PIX_RECEBIDO', 'PIX_ENVIADO', 'DEVOLUCAO_RECEBIDA', 'DEVOLUCAO_ENVIADA'] as const),
  e2eids: Type.Array(Type.String({ pattern: '^[a-zA-Z0-9]{32}$' }), { minItems: 1, maxItems: 1000 }),
}, { additionalProperties: false })

// ---- receipts ----

const ReceiptId = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 40, description }))
export const ReceiptQuery = Type.Object({
  e2eid: ReceiptId('A PIX sent or received, by its endToEndId'),
  e2eId: ReceiptId('The same as e2eid, as sdk-node-apis-efi names it'),
  idEnvio: ReceiptId('A PIX sent through Efí\'s pay-out routes, by its idEnvio'),
  rtrId: ReceiptId('A devolução received on a pay-out, by its rtrId'),
  txid: ReceiptId('The PIX that paid a charge, by the charge\'s txid'),
})

// ---- reconciliation report ----

/** The record types of Efí's reconciliation report (layout v4.0), by the name `tipoRegistros` gives each. */
export const REPORT_TYPES = {
  saldoDiaAnterior: 'SD0',
  saldoDia: 'SD1',
  pixRecebido: 'PR',
  pixEnviadoChave: 'PEC',
  pixEnviadoDadosBancarios: 'PEB',
  pixDevolucaoEnviada: 'PDE',
  pixDevolucaoRecebida: 'PDR',
  estornoPixEnviado: 'EPE',
  tarifaPixRecebido: 'TPR',
  tarifaPixEnviado: 'TPE',
  estornoTarifaPixRecebido: 'ETPR',
  estornoTarifaPixEnviado: 'ETPE',
  transferenciaRecebida: 'TFR',
  transferenciaEnviada: 'TFE',
  tarifaTransferenciaEnviada: 'TTFE',
  estornoTransferenciaEnviada: 'ETFE',
  estornoTarifaTransferenciaEnviada: 'ETTFE',
} as const

export const ReportRequestBody = Type.Object({
  dataMovimento: Type.String({ format: 'date', description: 'The São Paulo day it covers, before today' }),
  tipoRegistros: Type.Object(Object.fromEntries(Object.keys(REPORT_TYPES).map(k => [k, Type.Optional(Type.Boolean())])) as Record<keyof typeof REPORT_TYPES, TOptional<TBoolean>>, { additionalProperties: false }),
  dadosAdicionais: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'Accepted and ignored (not in layout v4.0)' })),
}, { additionalProperties: false })
export type ReportRequestBodyType = Static<typeof ReportRequestBody>

export const ReportStatus = Type.Object({
  id: Type.String(),
  dataSolicitacao: Type.String(),
  status: StringEnum(['AGUARDANDO_PROCESSAMENTO', 'EM_PROCESSAMENTO', 'CONCLUIDO'] as const),
})
export const ReportParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) })

// ---- Split ----

const Parte = Type.Object({
  tipo: StringEnum(['porcentagem', 'fixo'] as const),
  valor: Type.String({ pattern: '^\\d{1,10}\\.\\d{2}$', description: 'porcentagem: a percentage, e.g. "60.00"; fixo: BRL' }),
}, { additionalProperties: false })

const Repasse = Type.Object({
  tipo: StringEnum(['porcentagem', 'fixo'] as const),
  valor: Type.String({ pattern: '^\\d{1,10}\\.\\d{2}$' }),
  favorecido: Type.Object({
    cpf: Type.Optional(Type.String({ pattern: '^[0-9]{11}$' })),
    cnpj: Type.Optional(Type.String({ pattern: '^[0-9]{14}$' })),
    conta: Type.String({ pattern: '^[0-9]{1,20}$', description: 'The accountNumber of another account of this sandbox (its view shows it)' }),
  }, { additionalProperties: false, description: 'conta with cpf or cnpj, the account\'s document' }),
}, { additionalProperties: false })

export const SplitConfigBody = Type.Object({
  descricao: Type.Optional(Type.String({ maxLength: 80 })),
  txid: Type.Optional(Type.String({ pattern: '^[a-zA-Z0-9]{1,35}$' })),
  lancamento: Type.Object({ imediato: Type.Boolean() }, { additionalProperties: false }),
  split: Type.Object({
    divisaoTarifa: StringEnum(['assumir_total', 'proporcional'] as const),
    minhaParte: Parte,
    repasses: Type.Array(Repasse, { minItems: 1, maxItems: 20 }),
  }, { additionalProperties: false }),
}, { additionalProperties: false })
export type SplitConfigBodyType = Static<typeof SplitConfigBody>

export const SplitConfigParams = Type.Object({ id: Type.String({ pattern: '^[a-zA-Z0-9]{1,35}$' }) })
export const SplitConfigQuery = Type.Object({ revisao: Type.Optional(Type.String({ pattern: '^[0-9]{1,9}$' })) })

export const SplitConfigView = Type.Object({
  id: Type.String(),
  revisao: Type.Integer({ description: 'From 0; each PUT adds one' }),
  status: Type.Literal('ATIVA'),
  descricao: Type.Optional(Type.String()),
  txid: Type.Optional(Type.String()),
  lancamento: Type.Object({ imediato: Type.Boolean() }),
  split: Type.Object({
    divisaoTarifa: Type.String(),
    minhaParte: Type.Object({ tipo: Type.String(), valor: Type.String() }),
    repasses: Type.Array(Type.Object({ tipo: Type.String(), valor: Type.String(), favorecido: Type.Object({ cpf: Type.Optional(Type.String()), cnpj: Type.Optional(Type.String()), conta: Type.String() }) })),
  }),
})

const Txid = Type.String({ pattern: '^[a-zA-Z0-9]{26,35}$' })
export const SplitLinkParams = Type.Object({ txid: Txid, splitConfigId: Type.String({ pattern: '^[a-zA-Z0-9]{1,35}$' }) })
/** The unlink's path as sdk-node-apis-efi sends it: its placeholder left literal (`…/vinculo/:splitConfigId`). */
export const SplitUnlinkParams = Type.Object({ txid: Txid })
export const SplitChargeParams = Type.Object({ txid: Txid })
export const SplitCharge = Type.Object({
  txid: Type.String(),
  status: Type.String({ description: 'The charge\'s, as GET /v2/cob(v)/:txid shows it' }),
  valor: Type.Object({ original: Type.String() }),
  config: Type.Object({ id: Type.String(), revisao: Type.Integer(), status: Type.Literal('ATIVA'), descricao: Type.Optional(Type.String()) }),
  repasses: Type.Array(Type.Object({
    favorecido: Type.Object({ conta: Type.String() }),
    valor: Type.String({ description: 'What the repasse is of this charge' }),
    status: Type.String({ description: 'WAITING until the charge is paid; PAID (credited to the favorecido as a received PIX) or FAILED' }),
  }), { description: 'The sandbox\'s: each repasse of the linked revision, in BRL, and whether it was paid' }),
})
