import { NodeFs, type StoreFs } from '../../server/store/fs.js'

/**
 * The store's file system with faults on cue: an operation can fail (a full disk) or wait until the
 * test lets it go (a slow disk, to catch the moment between two writes). Matching is on the operation
 * and a piece of the path (`journal-2`, `pix-sandbox-tmp` for a base being written).
 */
type Op = 'appendFile' | 'writeFile' | 'rename' | 'readFile' | 'remove' | 'readdir' | 'mkdirs' | 'stat'

interface Rule {
  op: Op
  path: string
  fail?: () => Error
  hold?: Promise<void>
  /** Called when a held operation reaches the disk (it is then waiting). */
  reached?: () => void
  times: number
}

export function diskFull (): Error {
  return Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })
}

export class FaultyFs implements StoreFs {
  private rules: Rule[] = []
  readonly calls: Array<{ op: Op, path: string }> = []
  /** The real disk underneath, once an operation gets through. */
  private readonly disk = new NodeFs()

  /** Fails `op` on paths containing `path` (every time, or `times` times). */
  fail (op: Op, path: string, error: () => Error = diskFull, times = Infinity): void {
    this.rules.push({ op, path, fail: error, times })
  }

  /**
   * Holds the next `op` on a path containing `path` until the returned release is called (then lets
   * it through, or fails it like a full disk); `reached` resolves once the operation is waiting.
   */
  hold (op: Op, path: string, then?: 'fail'): { release: () => void, reached: Promise<void> } {
    let release!: () => void
    let reached!: () => void
    const hold = new Promise<void>(resolve => { release = resolve })
    const reachedPromise = new Promise<void>(resolve => { reached = resolve })
    this.rules.push({ op, path, hold, reached, times: 1, ...(then === 'fail' ? { fail: diskFull } : {}) })
    return { release, reached: reachedPromise }
  }

  /** The disk works again. */
  heal (): void {
    this.rules = []
  }

  private async gate (op: Op, path: string): Promise<void> {
    this.calls.push({ op, path })
    const rule = this.rules.find(r => r.op === op && path.includes(r.path) && r.times > 0)
    if (!rule) return
    rule.times--
    if (rule.hold) {
      rule.reached?.()
      await rule.hold
    }
    if (rule.fail) throw rule.fail()
  }

  async readFile (path: string): Promise<string> { await this.gate('readFile', path); return await this.disk.readFile(path) }
  async writeFile (path: string, text: string): Promise<void> { await this.gate('writeFile', path); await this.disk.writeFile(path, text) }
  async appendFile (path: string, text: string): Promise<void> { await this.gate('appendFile', path); await this.disk.appendFile(path, text) }
  async rename (from: string, to: string): Promise<void> { await this.gate('rename', to); await this.disk.rename(from, to) }
  async remove (path: string): Promise<void> { await this.gate('remove', path); await this.disk.remove(path) }
  async readdir (dir: string): Promise<string[]> { await this.gate('readdir', dir); return await this.disk.readdir(dir) }
  async mkdirs (dir: string): Promise<void> { await this.gate('mkdirs', dir); await this.disk.mkdirs(dir) }
  async stat (path: string): Promise<{ isDirectory: boolean, size: number } | null> { await this.gate('stat', path); return await this.disk.stat(path) }
  close (): void { this.disk.close() }
}
