/**
 * A reason the process cannot start that a person can act on (a data file that is not the sandbox's,
 * a busy port, a bad setting). main.ts prints it as one line, `pix-sandbox: <message>`, with no stack
 * trace unless LOG_LEVEL=debug, and exits with `exitCode`. The message names what is wrong, the file
 * or setting concerned, and what to do.
 */
export class StartupError extends Error {
  constructor (message: string, readonly exitCode = 2) {
    super(message)
    this.name = 'StartupError'
  }
}
