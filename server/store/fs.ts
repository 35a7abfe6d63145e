import { appendFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'

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
}

export const nodeFs: StoreFs = {
  readFile: path => readFile(path, 'utf8'),
  writeFile: (path, text) => writeFile(path, text),
  appendFile: (path, text) => appendFile(path, text),
  rename,
  remove: path => rm(path, { force: true }),
  readdir: dir => readdir(dir),
  mkdirs: async dir => { await mkdir(dir, { recursive: true }) },
  stat: async path => {
    try {
      const s = await stat(path)
      return { isDirectory: s.isDirectory(), size: s.size }
    } catch (err) {
      // Nothing there, or a file where a directory of the path should be (creating it will say so).
      const code = (err as NodeJS.ErrnoException).code
      if (code === 'ENOENT' || code === 'ENOTDIR') return null
      throw err
    }
  },
}
