import type { FastifyInstance } from 'fastify'
import type { Collection } from '../../server/store/state.js'

/**
 * How often each named collection of the live state was gone through (`Object.values`, `keys`,
 * `entries`, a `for...in`) while `fn` ran: a lookup that goes through an index goes through none. The
 * store's `data` is read through a proxy on the app's store for that time only, so what a test counts
 * is the work of the requests `fn` makes, and their answers are checked as usual.
 */
export async function enumerations<T> (app: FastifyInstance, watched: readonly Collection[], fn: () => Promise<T>): Promise<{ result: T, counts: Record<string, number> }> {
  const store = app.sandbox.store
  const counts: Record<string, number> = Object.fromEntries(watched.map(c => [c, 0]))
  // The getter of the store's class, or of the class it extends (store/reads.ts).
  let proto = Object.getPrototypeOf(store)
  while (Object.getOwnPropertyDescriptor(proto, 'data') === undefined) proto = Object.getPrototypeOf(proto)
  const real = Object.getOwnPropertyDescriptor(proto, 'data')!.get!
  const views = new WeakMap<object, object>()
  const counted = (collection: string, records: object): object => {
    let view = views.get(records)
    if (view === undefined) {
      view = new Proxy(records, { ownKeys: (target) => { counts[collection]++; return Reflect.ownKeys(target) } })
      views.set(records, view)
    }
    return view
  }
  const state = (live: object): object => new Proxy(live, {
    get: (target, key, receiver) => {
      const value = Reflect.get(target, key, receiver)
      return typeof key === 'string' && watched.includes(key as Collection) ? counted(key, value) : value
    },
  })
  Object.defineProperty(store, 'data', { configurable: true, get: () => state(real.call(store)) })
  try {
    return { result: await fn(), counts }
  } finally {
    delete (store as unknown as Record<string, unknown>).data
  }
}
