/**
 * Reads a V8 heap snapshot (`.heapsnapshot`) and says where its bytes are: retained sizes from the
 * dominator tree (what freeing an object would free), the store's state and indexes by name, the
 * largest retainers by class, and the transaction records field by field. Used by bench/heap-100k.ts.
 */
import { readFileSync } from 'node:fs'

interface Snapshot {
  snapshot: { meta: { node_fields: string[], node_types: [string[]], edge_fields: string[], edge_types: [string[]] }, node_count: number }
  nodes: number[]
  edges: number[]
  strings: string[]
}

export interface Heap {
  count: number
  name: (n: number) => string
  type: (n: number) => string
  self: Uint32Array
  retained: Float64Array
  dominator: Int32Array
  /** Outgoing edges of a node: [edge type, edge name, target]. */
  edges: (n: number) => Array<[string, string, number]>
}

export function readHeap (file: string): Heap {
  const s = JSON.parse(readFileSync(file, 'utf8')) as Snapshot
  const nf = s.snapshot.meta.node_fields
  const ef = s.snapshot.meta.edge_fields
  const NF = nf.length
  const EF = ef.length
  const nodeTypes = s.snapshot.meta.node_types[0]
  const edgeTypes = s.snapshot.meta.edge_types[0]
  const [iType, iName, iSelf, iEdges] = ['type', 'name', 'self_size', 'edge_count'].map(f => nf.indexOf(f))
  const [eType, eName, eTo] = ['type', 'name_or_index', 'to_node'].map(f => ef.indexOf(f))
  const N = s.nodes.length / NF
  const firstEdge = new Uint32Array(N + 1)
  for (let n = 0, e = 0; n < N; n++) { firstEdge[n] = e; e += s.nodes[n * NF + iEdges] * EF; firstEdge[n + 1] = e }
  const self = new Uint32Array(N)
  for (let n = 0; n < N; n++) self[n] = s.nodes[n * NF + iSelf]
  const weak = edgeTypes.indexOf('weak')
  const shortcut = edgeTypes.indexOf('shortcut')
  const target = (e: number): number => s.edges[e + eTo] / NF
  const followed = (e: number): boolean => s.edges[e + eType] !== weak && s.edges[e + eType] !== shortcut

  // Post-order from the root (node 0), iteratively.
  const post = new Int32Array(N).fill(-1)
  const order = new Int32Array(N)
  const visited = new Uint8Array(N)
  const stackNode = new Int32Array(N)
  const stackEdge = new Uint32Array(N)
  let sp = 0
  let count = 0
  stackNode[0] = 0; stackEdge[0] = firstEdge[0]; visited[0] = 1; sp = 1
  while (sp > 0) {
    const n = stackNode[sp - 1]
    const e = stackEdge[sp - 1]
    if (e < firstEdge[n + 1]) {
      stackEdge[sp - 1] = e + EF
      if (!followed(e)) continue
      const t = target(e)
      if (visited[t]) continue
      visited[t] = 1
      stackNode[sp] = t; stackEdge[sp] = firstEdge[t]; sp++
    } else {
      post[n] = count; order[count++] = n; sp--
    }
  }
  // Predecessors (by post-order index) of every reachable node.
  const predCount = new Uint32Array(count + 1)
  for (let n = 0; n < N; n++) {
    if (post[n] < 0) continue
    for (let e = firstEdge[n]; e < firstEdge[n + 1]; e += EF) if (followed(e) && post[target(e)] >= 0) predCount[post[target(e)] + 1]++
  }
  for (let i = 0; i < count; i++) predCount[i + 1] += predCount[i]
  const preds = new Int32Array(predCount[count])
  const fill = predCount.slice()
  for (let n = 0; n < N; n++) {
    if (post[n] < 0) continue
    for (let e = firstEdge[n]; e < firstEdge[n + 1]; e += EF) if (followed(e) && post[target(e)] >= 0) preds[fill[post[target(e)]]++] = post[n]
  }
  // Cooper, Harvey and Kennedy: iterate in reverse post-order until nothing changes.
  const root = count - 1
  const dom = new Int32Array(count).fill(-1)
  dom[root] = root
  for (let changed = true; changed;) {
    changed = false
    for (let b = root - 1; b >= 0; b--) {
      let idom = -1
      for (let k = predCount[b]; k < predCount[b + 1]; k++) {
        let p = preds[k]
        if (dom[p] === -1) continue
        if (idom === -1) { idom = p; continue }
        let q = idom
        while (p !== q) { while (p < q) p = dom[p]; while (q < p) q = dom[q] }
        idom = p
      }
      if (idom !== -1 && dom[b] !== idom) { dom[b] = idom; changed = true }
    }
  }
  const retained = new Float64Array(N)
  const dominator = new Int32Array(N).fill(-1)
  for (let i = 0; i < count; i++) retained[order[i]] = self[order[i]]
  for (let i = 0; i < root; i++) {
    if (dom[i] < 0) continue
    retained[order[dom[i]]] += retained[order[i]]
    dominator[order[i]] = order[dom[i]]
  }
  return {
    count: N,
    name: n => s.strings[s.nodes[n * NF + iName]],
    type: n => nodeTypes[s.nodes[n * NF + iType]],
    self,
    retained,
    dominator,
    edges: n => {
      const out: Array<[string, string, number]> = []
      for (let e = firstEdge[n]; e < firstEdge[n + 1]; e += EF) {
        const t = edgeTypes[s.edges[e + eType]]
        const nm = t === 'element' || t === 'hidden' ? String(s.edges[e + eName]) : s.strings[s.edges[e + eName]]
        out.push([t, nm, target(e)])
      }
      return out
    },
  }
}

const kb = (b: number): string => `${(b / 1024).toFixed(0)} KB`
const mb = (b: number): string => `${(b / 2 ** 20).toFixed(1)} MB`

/** Bytes of `field` over the records: retained when the record dominates it, otherwise shared. */
function fieldBreakdown (h: Heap, records: number[], per: number): string[] {
  const owned = new Map<string, number>()
  const shared = new Map<string, Set<number>>()
  let selfTotal = 0
  const add = (path: string, t: number, owner: number): void => {
    if (h.dominator[t] === owner) owned.set(path, (owned.get(path) ?? 0) + h.retained[t])
    else { let set = shared.get(path); if (!set) shared.set(path, set = new Set()); set.add(t) }
  }
  for (const r of records) {
    selfTotal += h.self[r]
    for (const [type, name, t] of h.edges(r)) {
      if (type === 'property' || type === 'internal') {
        if (type === 'internal' && name !== 'properties' && name !== 'elements') continue
        add(name, t, r)
        // One level into nested records (data, history): where their bytes go.
        if ((name === 'data' || name === 'history') && h.dominator[t] === r) {
          for (const [t2, n2, c] of h.edges(t)) {
            if (t2 === 'property' || t2 === 'element') add(`${name}.${t2 === 'element' ? '[i]' : n2}`, c, t)
          }
        }
      }
    }
  }
  const lines = [`  record objects themselves: ${(selfTotal / per).toFixed(0)} B per record`]
  for (const [k, v] of [...owned].sort((a, b) => b[1] - a[1])) if (v / per >= 1) lines.push(`  ${k}: ${(v / per).toFixed(0)} B per record, its own (a nested path is part of its parent's figure)`)
  // Shared with an index or with other records: counted once here, by distinct object.
  for (const [k, v] of [...shared].sort((a, b) => b[1].size - a[1].size).slice(0, 8)) {
    let bytes = 0
    for (const t of v) bytes += h.retained[t]
    lines.push(`  ${k}: held with others (an index, other records), ${v.size} distinct objects, ${(bytes / per).toFixed(0)} B per record`)
  }
  return lines
}

export function report (h: Heap, per: number): string {
  const out: string[] = []
  let total = 0
  for (let n = 0; n < h.count; n++) total += h.self[n]
  out.push(`heap in the snapshot: ${mb(total)}, ${h.count} objects`)
  // By class (type and name), self sizes.
  const byClass = new Map<string, [number, number]>()
  for (let n = 0; n < h.count; n++) {
    const t = h.type(n)
    const key = t === 'object' || t === 'closure' || t === 'native' ? `${t} ${h.name(n)}` : t === 'hidden' || t === 'array' || t === 'code' ? `${t} ${h.name(n).slice(0, 40)}` : t
    const v = byClass.get(key) ?? [0, 0]
    v[0] += h.self[n]; v[1]++
    byClass.set(key, v)
  }
  out.push('', 'self sizes by class (largest 20):')
  for (const [k, [b, c]] of [...byClass].sort((a, b) => b[1][0] - a[1][0]).slice(0, 20)) out.push(`  ${k}: ${mb(b)} (${c} objects, ${(b / per).toFixed(0)} B per cash-out)`)

  // The store: its state's collections and each index, by field name.
  const store = find(h, n => h.type(n) === 'object' && hasProps(h, n, ['txByAccount', 'state']))
  if (store !== undefined) {
    out.push('', `the Store (retained ${mb(h.retained[store])}):`)
    for (const [type, name, t] of h.edges(store)) {
      if (type !== 'property' || h.retained[t] < 64 * 1024) continue
      out.push(`  ${name}: ${mb(h.retained[t])} (${(h.retained[t] / per).toFixed(0)} B per cash-out)`)
      if (name === 'state') {
        for (const [t2, n2, c] of h.edges(t)) if (t2 === 'property' && h.retained[c] > 64 * 1024) out.push(`    state.${n2}: ${mb(h.retained[c])} (${(h.retained[c] / per).toFixed(0)} B per cash-out)`)
      }
    }
  }
  // The largest retainers that are not inside another large one.
  out.push('', 'largest retainers (objects retaining over 1 MB whose dominator retains less than twice as much):')
  const big: number[] = []
  for (let n = 0; n < h.count; n++) {
    if (h.retained[n] < 2 ** 20 || h.type(n) === 'hidden' || h.type(n) === 'synthetic') continue
    const d = h.dominator[n]
    if (d >= 0 && h.retained[d] < 2 * h.retained[n] && h.type(d) !== 'synthetic') continue
    big.push(n)
  }
  for (const n of big.sort((a, b) => h.retained[b] - h.retained[a]).slice(0, 20)) {
    const d = h.dominator[n]
    const via = d >= 0 ? h.edges(d).find(e => e[2] === n)?.[1] : undefined
    out.push(`  ${h.type(n)} ${h.name(n).slice(0, 50)}${via !== undefined ? ` (as ${via} of ${h.name(d).slice(0, 30)})` : ''}: ${mb(h.retained[n])}`)
  }
  // Transaction records, field by field.
  const txs: number[] = []
  for (let n = 0; n < h.count; n++) if (h.type(n) === 'object' && h.name(n) === 'Object' && hasProps(h, n, ['direction', 'history', 'kind', 'createdAt', 'updatedAt', 'data'])) txs.push(n)
  if (txs.length) {
    out.push('', `transaction records: ${txs.length}, retained ${mb(txs.reduce((a, n) => a + h.retained[n], 0))}, ${(txs.reduce((a, n) => a + h.retained[n], 0) / txs.length).toFixed(0)} B each; field by field:`)
    out.push(...fieldBreakdown(h, txs, txs.length))
  }
  return out.join('\n')
}

function find (h: Heap, ok: (n: number) => boolean): number | undefined {
  for (let n = 0; n < h.count; n++) if (ok(n)) return n
  return undefined
}

function hasProps (h: Heap, n: number, names: string[]): boolean {
  const have = new Set(h.edges(n).filter(e => e[0] === 'property').map(e => e[1]))
  return names.every(x => have.has(x))
}

void kb
if (process.argv[1]?.endsWith('heap-analysis.ts') && process.argv[2]) {
  console.log(report(readHeap(process.argv[2]), Number(process.argv[3] ?? 100_000)))
}
