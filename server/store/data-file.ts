import { randomBytes } from 'node:crypto'
import { basename, dirname, join } from 'node:path'
import type { Adapter, Low } from 'lowdb'
import type { StoreFs } from './fs.js'

/**
 * The files of `--data FILE`: the base document (`FILE`, read and written through lowdb), the
 * journals beside it (`FILE.journal-G`, one per generation), and what pairs a journal with its base.
 * Opening reads them (`opening.ts`); the durable log writes them (`durable-log.ts`).
 */

/**
 * What a journal continues, written on the sequences line that ends each of its batches: the base of
 * its own generation (`base`, the id that base document carries) or, for the journal a compaction
 * started, the previous base followed by that base's journal (`after`), in case the compaction never
 * landed. A journal that names neither does not belong with the file beside it.
 */
export interface Pairing { base: string, after?: string }

export const isPairing = (v: unknown): v is Pairing =>
  typeof v === 'object' && v !== null && typeof (v as Pairing).base === 'string' && ['string', 'undefined'].includes(typeof (v as Pairing).after)

/** A fresh id for a base document: a copy of the file carries it too, but never the next run's journal. */
export const newBaseId = (): string => randomBytes(8).toString('hex')

/** A data file as its readers and writers take it: the path, the file system, lowdb's handle on the base document. */
export interface DataFile {
  file: string
  fs: StoreFs
  base: Low<string>
}

/** lowdb's adapter for the base document, over the store's file-system port. */
export class BaseFile implements Adapter<string> {
  constructor (private readonly fs: StoreFs, private readonly file: string) {}
  async read (): Promise<string | null> { return await this.fs.stat(this.file) === null ? null : await this.fs.readFile(this.file) }
  async write (text: string): Promise<void> {
    // A temp file renamed over the base: the base is never half-written. The name is the sandbox's own.
    const temp = join(dirname(this.file), `.${basename(this.file)}.pix-sandbox-tmp`)
    try {
      await this.fs.writeFile(temp, text)
      await this.fs.rename(temp, this.file)
    } catch (err) {
      await this.fs.remove(temp).catch(() => {})
      throw err
    }
  }
}

export function journalPath (file: string, generation: number): string {
  return `${file}.journal-${generation}`
}

/** The journal files beside the data file, oldest generation first. */
export async function listJournals (fs: StoreFs, file: string): Promise<Array<{ generation: number, path: string }>> {
  const dir = dirname(file)
  const prefix = `${basename(file)}.journal-`
  const names = await fs.readdir(dir)
  return names
    .filter(n => n.startsWith(prefix) && /^\d+$/.test(n.slice(prefix.length)))
    .map(n => ({ generation: Number(n.slice(prefix.length)), path: join(dir, n) }))
    .sort((a, b) => a.generation - b.generation)
}
