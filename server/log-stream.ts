/**
 * Where the log lines go: stdout, in one write per turn of the event loop rather than one per line.
 * Under load every request ends with a line, and pino's own destination made a write for each: about
 * a twentieth of a cash-out's CPU at the default level (`npm run bench:profile`). A line waits at most
 * for the end of the turn it was logged in; lines still waiting when the process ends (a shutdown, a
 * crash, process.exit) are written on its way out.
 */
export interface LineWriter {
  write: (line: string) => void
}

export function batchedWriter (out: { write: (text: string) => unknown }): LineWriter {
  let pending = ''
  let hooked = false
  const flush = (): void => {
    const text = pending
    pending = ''
    if (text !== '') out.write(text)
  }
  return {
    write (line) {
      if (!hooked) {
        hooked = true
        process.on('exit', flush)
      }
      if (pending === '') setImmediate(flush)
      pending += line
    },
  }
}

/** One for the process, as stdout is one. */
export const batchedStdout = batchedWriter(process.stdout)
