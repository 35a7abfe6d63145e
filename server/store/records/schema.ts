import { FormatRegistry, Type, type Static, type TLiteral, type TObject, type TProperties, type TSchema, type TUnion } from '@sinclair/typebox'
import type { AppliedScenario } from '../../../scenarios/types.js'
import { isIsoDate, parseInstant } from '../../domain/instant.js'
import { MAX_CENTS, TOTAL_LIMIT_CENTS } from '../../domain/money.js'

/**
 * The building blocks of the records' schemas (`store/records.ts`): instants and dates in the formats
 * the domain reads, exact integers, money within the ledger's bounds, open objects, enumerations. For
 * the record files only: `records.ts` re-exports none of them but the two formats.
 */

/** The JSON Schema format of an instant (`domain/instant.ts`), which `Date.parse` is too lenient to check. */
export const INSTANT_FORMAT = 'pix-sandbox-instant'
FormatRegistry.Set(INSTANT_FORMAT, value => parseInstant(value) !== null)

export const Instant = Type.String({ format: INSTANT_FORMAT })
/** The JSON Schema format of a calendar date (`YYYY-MM-DD` that exists), as API Pix's dates are kept. */
export const DATE_FORMAT = 'pix-sandbox-date'
FormatRegistry.Set(DATE_FORMAT, value => isIsoDate(value))
export const CalendarDate = Type.String({ format: DATE_FORMAT })
/** Every integer of the document is exact: past 2^53 a double skips integers, and the cents helpers refuse it. */
export const Int = (bounds: { minimum?: number, maximum?: number } = {}) => Type.Integer({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER, ...bounds })
export const Id = Int({ minimum: 1 })
/** An amount one operation carries (a payment, a fee, a split): what `domain/money.ts` ever reads in. */
export const Cents = Int({ minimum: 0, maximum: MAX_CENTS })
/** What an account holds, allows or has moved in total: within the ledger's bounds (`domain/ledger.ts`). */
export const Holding = Int({ minimum: 0, maximum: TOTAL_LIMIT_CENTS })
export const Text = Type.String()
export const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()])
/** A record may carry fields a later version added: read, kept, never relied on. */
export const Open = <T extends TProperties>(fields: T): TObject<T> => Type.Object(fields, { additionalProperties: true })
export const OneOf = <const T extends string>(values: readonly T[]): TUnion<Array<TLiteral<T>>> => Type.Union(values.map(v => Type.Literal(v)))
/** One of a few integers (API Pix's `modalidade`s). */
export const OneOfNumbers = <const T extends number>(values: readonly T[]): TUnion<Array<TLiteral<T>>> => Type.Union(values.map(v => Type.Literal(v)))
export const Strings = Type.Record(Type.String(), Text)

/**
 * A value type another layer owns (the domain's BR Code, the catalogue's applied scenario), stored in
 * a record: its schema says what a document must hold, and the compiler checks that it describes
 * exactly that type (a field added on one side and not the other does not compile).
 */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
export const describes = <T>() => <S extends TSchema>(schema: S, ..._same: Same<Static<S>, T> extends true ? [] : ['the schema does not describe the type']): S => schema

/** A scenario applied to an operation, kept so that what it bends later (a settlement, a delivery) still applies it. */
export const AppliedScenarioSchema = describes<AppliedScenario>()(Open({ name: Text, params: Strings }))
