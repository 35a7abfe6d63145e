import type { Static, TSchema } from '@sinclair/typebox'
import type { FastifyPluginAsync, FastifyTypeProvider, RawServerDefault } from 'fastify'
import type { DeepReadonly } from './store/state.js'

/**
 * TypeBox's type provider (`@fastify/type-provider-typebox`) with one difference: what a route answers
 * is typed read-only all the way down. The serializer only reads a reply, so a stored record, which the
 * store hands out read-only, is a reply as it is: no route needs a writable view of one, and none
 * exists to write a record around the store's API (`test/unit/write-path.test.ts`).
 */
export interface ReadOnlyReplies extends FastifyTypeProvider {
  validator: this['schema'] extends TSchema ? Static<this['schema']> : unknown
  serializer: this['schema'] extends TSchema ? DeepReadonly<Static<this['schema']>> : unknown
}

/** A plugin of routes: their request parts typed by their schemas, their replies read-only. */
export type RoutesPlugin = FastifyPluginAsync<Record<never, never>, RawServerDefault, ReadOnlyReplies>
