import { basename, dirname, join } from 'node:path'
import { StartupError } from '../errors/startup.js'
import { isPairing, listJournals, type DataFile, type Pairing } from './data-file.js'
import { classify, jsonErrorLocation, readDocument } from './document.js'
import type { StoreFs } from './fs.js'
import { COLLECTIONS, type ClockRecord, type RngState, type State } from './state.js'
import { SEQ } from './units.js'

/**
 * Opening `--data FILE`: the base document, then the journals that continue it, replayed batch by
 * batch, then the whole checked as a state this sandbox wrote. What is not such a state stops the
 * start with a StartupError and is left untouched, as is every other file; a journal that continues
 * another copy of the file is set aside.
 */

/** What `open` found in the data file. */
export interface OpenResult {
  /** The file held a state (else it is a first start: the caller seeds the fixtures). */
  found: boolean
  /** The clock the state carried, when it carried one (format 1 did not). */
  clock?: ClockRecord
  /** Where the random stream stood (format 1 did not keep it). */
  rng?: RngState
  /** Written by the previous format; it is rewritten in the current one on the next write. */
  migrated: boolean
  /** The line that says which journals were set aside, not continuing the file (see `setAside`). */
  notice?: string
}

/** What the durable log takes over from the files opened. */
export interface Opened {
  result: OpenResult
  /** The state the files hold; absent on a first start. */
  state?: State
  /** The generation the next journal follows. */
  generation: number
  journalBytes: number
  baseBytes: number
  /** The clock as the files hold it (what a failed write puts the clock back to). */
  durableClock: ClockRecord | null
}

const LEFT_ALONE = 'the file was left untouched'

/**
 * Reads the data file and its journals. A missing or empty file is a first start. The directory is
 * created when missing and checked for writing.
 */
export async function openDataFile ({ fs, file, base }: DataFile): Promise<Opened> {
  const where = `--data ${file}`
  let stat: Awaited<ReturnType<StoreFs['stat']>>
  try {
    stat = await fs.stat(file)
  } catch (err) {
    throw new StartupError(`${where} cannot be read (${(err as Error).message}); check the path and its permissions, or choose another file`)
  }
  if (stat?.isDirectory) throw new StartupError(`${where} is a directory; give the path of a file in it, such as ${join(file, 'state.json')}`)
  await checkWritable(fs, file, where)

  let text = ''
  try {
    await base.read()
    text = base.data ?? ''
  } catch (err) {
    throw new StartupError(`${where} cannot be read (${(err as Error).message}); fix its permissions or choose another file`)
  }
  let journals: Array<{ generation: number, path: string }>
  try {
    journals = await listJournals(fs, file)
  } catch (err) {
    throw new StartupError(`${where}: the directory ${dirname(file)} cannot be listed (${(err as Error).message}); fix its permissions`)
  }
  if (text.trim() === '') {
    // A missing or empty file (`touch state.json` before a first start) holds no state yet. Journals
    // beside it belong to a state the file no longer holds: the first write goes past their
    // generations, and deletes them.
    const generation = journals.reduce((max, j) => Math.max(max, j.generation), 0)
    return { result: { found: false, migrated: false }, generation, journalBytes: 0, baseBytes: text.length, durableClock: null }
  }
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch (err) {
    const at = jsonErrorLocation(text)
    const why = at.truncated
      ? `ends before its JSON document does (truncated at line ${at.line}, column ${at.column})`
      : `is not valid JSON (line ${at.line}, column ${at.column})`
    throw new StartupError(`${where} ${why}; ${LEFT_ALONE}. Restore it from a copy, or point --data at a new file`)
  }
  const kind = classify(doc)
  if (!kind.ok) throw refusal(where, kind.kind, kind.problems)
  const document = doc as Record<string, unknown>
  const baseGeneration = typeof document.journalGeneration === 'number' ? document.journalGeneration : 0
  const baseId = typeof document.baseId === 'string' ? document.baseId : null
  let generation = baseGeneration
  let journalBytes = 0
  // The base the next journal must continue: the file's, then the one each journal replayed continued.
  let tip = baseId
  let chained = false
  const belongs = (pairing: Pairing | null): boolean => {
    // Both written before journals named their base.
    if (baseId === null) return pairing === null
    if (pairing === null || !(pairing.base === tip || (chained && pairing.after === tip))) return false
    tip = pairing.base
    chained = true
    return true
  }
  const orphans: string[] = []
  for (const journal of journals) {
    // Older than the base: already in it (a compaction ended before the journal was deleted).
    if (journal.generation < baseGeneration) continue
    let lines: string
    try {
      lines = await fs.readFile(journal.path)
    } catch (err) {
      throw new StartupError(`${where}: its journal ${journal.path} cannot be read (${(err as Error).message}); fix its permissions`)
    }
    if (!replay(document, lines, journal.path, where, belongs)) {
      orphans.push(journal.path)
      continue
    }
    generation = journal.generation
    journalBytes = lines.length
  }
  const read = await readDocument(document)
  if (!read.ok) throw refusal(where, read.kind, read.problems)
  const notice = await setAside(fs, orphans, where)
  // Journals older than the base are folded in it already: the sandbox's own files, and the state is accepted.
  for (const j of journals) if (j.generation < baseGeneration) await fs.remove(j.path).catch(() => {})
  return {
    result: { found: true, migrated: read.legacy, ...(read.clock ? { clock: read.clock } : {}), ...(read.rng ? { rng: read.rng } : {}), ...(notice ? { notice } : {}) },
    state: read.state,
    generation,
    journalBytes,
    baseBytes: text.length,
    durableClock: read.clock ?? null,
  }
}

/**
 * Moves journals that do not continue the base beside them out of the way, under a name that says so
 * and that no start reads again: their changes were made on another copy of the file (the file was
 * replaced, e.g. restored from a backup, while they stayed). Returns the line that says what was done.
 */
async function setAside (fs: StoreFs, orphans: string[], where: string): Promise<string | undefined> {
  if (orphans.length === 0) return undefined
  const stamp = new Date().toISOString().replace(/[-:.]/g, '')
  const moved: string[] = []
  for (const path of orphans) {
    const to = `${path}.orphaned-${stamp}`
    try {
      await fs.rename(path, to)
    } catch (err) {
      throw new StartupError(`${where}: its journal ${path} does not continue the file, and setting it aside failed (${(err as Error).message}); move it out of the directory, or point --data at another file`)
    }
    moved.push(basename(to))
  }
  return `${where}: ${orphans.map(p => basename(p)).join(', ')} did not continue the file (the file was replaced, e.g. restored from a copy): set aside as ${moved.join(', ')}; the state is the file's`
}

function refusal (where: string, kind: 'foreign' | 'newer' | 'invalid', problems: string[]): StartupError {
  const first = problems.slice(0, 3).join('; ')
  switch (kind) {
    case 'foreign': return new StartupError(`${where} is not a pix-sandbox state: ${first}; ${LEFT_ALONE}. Point --data at a new file or at a state the sandbox wrote`)
    case 'newer': return new StartupError(`${where}: ${first}; ${LEFT_ALONE}. Upgrade pix-sandbox, or point --data at another file`)
    default: {
      const more = problems.length > 3 ? ` (and ${problems.length - 3} more)` : ''
      return new StartupError(`${where} is a pix-sandbox state with problems: ${first}${more}; ${LEFT_ALONE}. Restore it from a copy, or point --data at a new file`)
    }
  }
}

/** Creates the directory when missing, then writes and removes a probe file of the sandbox's own name. */
async function checkWritable (fs: StoreFs, file: string, where: string): Promise<void> {
  const dir = dirname(file)
  const probe = join(dir, `.${basename(file)}.pix-sandbox-probe`)
  try {
    await fs.mkdirs(dir)
    await fs.writeFile(probe, '')
    await fs.remove(probe)
  } catch (err) {
    throw new StartupError(`${where}: the directory ${dir} cannot be written (${(err as Error).message}); create it with write permission for this user, or choose another path`)
  }
}

/**
 * Replays a journal over the document. Lines come in batches that end with the sequences line, which
 * names the base the journal continues: at the end of the first batch, before anything is applied,
 * `belongs` says whether it continues this one (else the replay stops, having changed nothing, and
 * returns false). A batch without its end is the tail of a write cut short (never acknowledged) and
 * is dropped. A line that is not JSON before the end means the file was damaged: the start stops.
 */
function replay (doc: Record<string, unknown>, text: string, path: string, where: string, belongs: (pairing: Pairing | null) => boolean): boolean {
  const lines = text.split('\n')
  let batch: Array<[string, string, unknown]> = []
  let clock: unknown
  let rng: unknown
  let first = true
  const damaged = (i: number, why: string) =>
    new StartupError(`${where}: its journal ${path} has a damaged line ${i + 1} (${why}) before its end; the files were left untouched. Restore them from a copy, or point --data at a new file`)
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] === '') continue
    let entry: unknown
    try {
      entry = JSON.parse(lines[i])
    } catch {
      // A kill in the middle of an append tears the last line; that batch was never acknowledged.
      if (lines.slice(i + 1).every(l => l === '')) return true
      throw damaged(i, 'not JSON')
    }
    if (!Array.isArray(entry) || entry.length < 3 || entry.length > (entry[0] === SEQ ? 4 : 3)) throw damaged(i, 'not a journal entry')
    const [name, id, value, pairing] = entry as [string, string | null, unknown, unknown]
    if (name === SEQ) {
      if (first && !belongs(isPairing(pairing) ? pairing : null)) return false
      first = false
      for (const [collection, recordId, record] of batch) {
        const records = (doc[collection] ??= {}) as Record<string, unknown>
        if (typeof records !== 'object' || records === null) continue // the validation after replay says what is wrong
        if (record === null) delete records[recordId]
        else records[recordId] = record
      }
      doc.seq = value
      if (clock !== undefined) doc.clock = clock
      if (rng !== undefined) doc.rng = rng
      batch = []
      clock = undefined
      rng = undefined
    } else if (name === 'clock') {
      clock = value
    } else if (name === 'rng') {
      rng = value
    } else if ((COLLECTIONS as readonly string[]).includes(name) && typeof id === 'string') {
      batch.push([name, id, value])
    } else {
      throw damaged(i, 'names no known record')
    }
  }
  return true
}
