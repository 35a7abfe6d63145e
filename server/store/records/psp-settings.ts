import { Type, type Static } from '@sinclair/typebox'
import { Id, Instant, Text } from './schema.js'

/**
 * What a PSP's own API keeps of an account's settings (Efí's `PUT /v2/gn/config`, docs/efi.md), owned
 * by PspSettingsService: one record per account and PSP, its settings as the PSP's API took them.
 */
export const PspSettingsSchema = Type.Object({
  /** `<accountId>:<psp>`. */
  key: Text,
  accountId: Id,
  psp: Text,
  settings: Type.Record(Type.String(), Type.Unknown()),
  updatedAt: Instant,
})
export type PspSettingsRecord = Static<typeof PspSettingsSchema>

/**
 * A report a PSP's own API was asked for (Efí's reconciliation report, POST
 * /v2/gn/relatorios/extrato-conciliacao, docs/efi.md), owned by PspSettingsService: what was asked and
 * when; the file is made from the records when it is read.
 */
export const PspReportSchema = Type.Object({
  id: Text,
  accountId: Id,
  psp: Text,
  /** The São Paulo day it covers, YYYY-MM-DD. */
  day: Text,
  /** The record types asked for, as the PSP names them. */
  types: Type.Array(Text),
  requestedAt: Instant,
})
export type PspReportRecord = Static<typeof PspReportSchema>

/**
 * A split configuration of a PSP's own API (Efí's `/v2/gn/split/config`, docs/efi.md), owned by
 * PspSettingsService: every revision as that API took it, the newest last (a PUT adds one; a charge
 * linked to it keeps the revision it was linked with).
 */
export const PspSplitConfigSchema = Type.Object({
  /** `<accountId>:<psp>:<id>`: an id names a configuration of its account. */
  key: Text,
  accountId: Id,
  psp: Text,
  id: Text,
  revisions: Type.Array(Type.Object({ config: Type.Record(Type.String(), Type.Unknown()), at: Instant })),
})
export type PspSplitConfigRecord = Static<typeof PspSplitConfigSchema>

/**
 * A charge of the account linked to a split configuration (Efí's `PUT /v2/gn/split/cob/:txid/vinculo/:id`),
 * owned by PspSettingsService: the revision it was linked with.
 */
export const PspSplitLinkSchema = Type.Object({
  /** `<accountId>:<psp>:<txid>`: one txid names one charge of its receiver. */
  key: Text,
  accountId: Id,
  psp: Text,
  txid: Text,
  configId: Text,
  revisao: Type.Integer({ minimum: 0 }),
  linkedAt: Instant,
})
export type PspSplitLinkRecord = Static<typeof PspSplitLinkSchema>
