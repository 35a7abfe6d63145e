import type { FastifyInstance } from 'fastify'
import type { Collection } from '../../server/store/state.js'

/**
 * How often each named collection of the live state was gone through (`Object.values`, `keys`,
 * `entries`, a `for...in`) while `fn` ran: a lookup that goes through an index goes through none. The
 * store's `data` is read through a proxy on the app's store for that time only, so what a test counts
 * is the work of the requests `fn` makes, and their answers are checked as usual. `read` names, for
 * each collection, the records read from it by key there (a lookup through a list reads the records
 * listed: a page reads its own, a pass over a list every one of them).
 */
export async function enumerations<T> (app: FastifyInstance, watched: readonly Collection[], fn: () => Promise<T>): Promise<{ result: T, counts: Record<string, number>, read: Record<string, Set<string>> }> {
  const store = app.sandbox.store
  const counts: Record<string, number> = Object.fromEntries(watched.map(c => [c, 0]))
  const read: Record<string, Set<string>> = Object.fromEntries(watched.map(c => [c, new Set<string>()]))
  // The getter of the store's class, or of the class it extends (store/reads.ts).
  let proto = Object.getPrototypeOf(store)
  while (Object.getOwnPropertyDescriptor(proto, 'data') === undefined) proto = Object.getPrototypeOf(proto)
  const real = Object.getOwnPropertyDescriptor(proto, 'data')!.get!
  const views = new WeakMap<object, object>()
  const counted = (collection: string, records: object): object => {
    let view = views.get(records)
    if (view === undefined) {
      view = new Proxy(records, {
        ownKeys: (target) => { counts[collection]++; return Reflect.ownKeys(target) },
        get: (target, key, receiver) => {
          if (typeof key === 'string' && Object.hasOwn(target, key)) read[collection].add(key)
          return Reflect.get(target, key, receiver)
        },
      })
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
    return { result: await fn(), counts, read }
  } finally {
    delete (store as unknown as Record<string, unknown>).data
  }
}
