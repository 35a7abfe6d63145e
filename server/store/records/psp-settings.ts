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
