/**
 * What the compiler lets code do with a stored record: read it, all the way down. Defined in the
 * domain, which reads records without importing the store's record types (store/records.ts imports
 * the domain's lists of statuses and codes); store/state.ts hands it on.
 */
export type DeepReadonly<T> =
  T extends (...args: never[]) => unknown ? T
    : T extends ReadonlyArray<infer U> ? ReadonlyArray<DeepReadonly<U>>
      : T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
        : T
