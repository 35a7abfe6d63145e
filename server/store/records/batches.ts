import { Type, type Static } from '@sinclair/typebox'
import { AppliedScenarioSchema, Id, Instant, Int, OneOf, Open, Text } from './schema.js'

/** API Pix's batches of due charges (lotecobv, docs/api-pix.md), owned by CobVBatchService. */

/** Where each request of a batch stands (API Pix's LoteCobVConsultado). */
export const COBV_BATCH_ITEM_STATUSES = ['EM_PROCESSAMENTO', 'CRIADA', 'NEGADA'] as const
export type CobVBatchItemStatus = typeof COBV_BATCH_ITEM_STATUSES[number]

/** API Pix's Problema: why a request of a batch was refused, as PUT or PATCH /cobv/{txid} would have answered it. */
const ProblemSchema = Open({
  type: Text,
  title: Text,
  status: Int({ minimum: 400, maximum: 599 }),
  detail: Text,
  violacoes: Type.Optional(Type.Array(Open({ razao: Text, propriedade: Type.Optional(Text), valor: Type.Optional(Text) }))),
})

/**
 * A batch of due charges (API Pix's lotecobv): the requests to create or revise its cobvs, each with
 * its own status, processed by the scheduler at `dueAt`. Its `id` is the receiver's own (PUT
 * /lotecobv/{id}), so two accounts may use one: the record's key is `<accountId>:<id>`.
 */
export const CobVBatchSchema = Open({
  key: Type.String({ pattern: '^[1-9][0-9]*:[1-9][0-9]*$' }),
  id: Id,
  accountId: Id,
  descricao: Text,
  createdAt: Instant,
  /** The host[:port] of the locations its cobvs are created at (that of the request that created the batch). */
  host: Text,
  /** Scenarios the batch's request applied, given to each cobv it creates. */
  scenarios: Type.Optional(Type.Array(AppliedScenarioSchema)),
  /** When the requests EM_PROCESSAMENTO are processed; absent while none waits. */
  dueAt: Type.Optional(Instant),
  items: Type.Array(Open({
    txid: Text,
    status: OneOf(COBV_BATCH_ITEM_STATUSES),
    /** The request waiting while EM_PROCESSAMENTO: a creation (CobVSolicitada, PUT) or a revision (CobVRevisada, PATCH), as received. */
    pending: Type.Optional(Open({ revision: Type.Boolean(), body: Type.Unknown() })),
    /** NEGADA: the problem, as PUT or PATCH /cobv/{txid} would have answered it. */
    problema: Type.Optional(ProblemSchema),
    /** CRIADA: when its cobv was created. */
    criacao: Type.Optional(Instant),
  })),
})
export type CobVBatchRecord = Static<typeof CobVBatchSchema>
