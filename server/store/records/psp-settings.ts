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
