import { closeSync, openSync, writeSync } from 'node:fs'
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'

/**
 * The few file operations the store makes, as a port: the process uses node:fs, and tests inject one
 * that is slow or fails on cue (a disk that fills up in the middle of a compaction), which no real
 * file system does on demand.
 */
export interface StoreFs {
  readFile (path: string): Promise<string>
  writeFile (path: string, text: string): Promise<void>
  appendFile (path: string, text: string): Promise<void>
  rename (from: string, to: string): Promise<void>
  /** Removes a file; a missing one is not an error. */
  remove (path: string): Promise<void>
  readdir (dir: string): Promise<string[]>
  mkdirs (dir: string): Promise<void>
  /** null when nothing is at `path`. */
  stat (path: string): Promise<{ isDirectory: boolean, size: number } | null>
  /** Lets go of what the port keeps open between calls (the store closes). */
  close? (): void
}

/**
 * node:fs for one store. The journal the store appends to stays open between appends, and an append
 * is one write(2) on the event loop's thread: with `--data` every answer waits for its append, and
 * opening, writing and closing the file through the thread pool (three round trips for a few
 * kilobytes that land in the page cache) was most of that wait.
 */
export class NodeFs implements StoreFs {
  /** The file descriptor of each file appended to, until it is removed or the store closes. */
  private readonly appending = new Map<string, number>()

  async readFile (path: string): Promise<string> {
    return await readFile(path, 'utf8')
  }

  async writeFile (path: string, text: string): Promise<void> {
    await writeFile(path, text)
  }

  async appendFile (path: string, text: string): Promise<void> {
    let fd = this.appending.get(path)
    if (fd === undefined) this.appending.set(path, fd = openSync(path, 'a'))
    try {
      const bytes = Buffer.from(text)
      for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done)
    } catch (err) {
      // Opened again by the next append: the store rewrites the base after a failed one anyway.
      this.release(path)
      throw err
    }
  }

  async rename (from: string, to: string): Promise<void> {
    await rename(from, to)
  }

  async remove (path: string): Promise<void> {
    this.release(path)
    await rm(path, { force: true })
  }

  async readdir (dir: string): Promise<string[]> {
    return await readdir(dir)
  }

  async mkdirs (dir: string): Promise<void> {
    await mkdir(dir, { recursive: true })
  }

  async stat (path: string): Promise<{ isDirectory: boolean, size: number } | null> {
    try {
      const s = await stat(path)
      return { isDirectory: s.isDirectory(), size: s.size }
    } catch (err) {
      // Nothing there, or a file where a directory of the path should be (creating it will say so).
      const code = (err as NodeJS.ErrnoException).code
      if (code === 'ENOENT' || code === 'ENOTDIR') return null
      throw err
    }
  }

  close (): void {
    for (const path of [...this.appending.keys()]) this.release(path)
  }

  private release (path: string): void {
    const fd = this.appending.get(path)
    if (fd === undefined) return
    this.appending.delete(path)
    try { closeSync(fd) } catch {}
  }
}
