import type { Socket } from 'node:net'

/** How long a connection closing after a refused body goes on reading what the client still sends. */
export const LINGER_MS = 5000

/**
 * A lingering close (RFC 9112, section 9.6) for a connection whose answer goes out before its request
 * body was read, as a 413 or a 415 is. Node closes such a connection at once when the answer ends it, and a
 * client still writing the body then meets a reset: its write fails, and the answer it had not read
 * yet is lost with the connection. Instead our side ends after the answer, and what the client still
 * sends is read and dropped until it ends its side, for `ms` at most.
 */
export function lingerOnClose (socket: Socket, ms = LINGER_MS): void {
  // Node's HTTP server ends a connection after its last answer with destroySoon().
  socket.destroySoon = function lingeringClose (this: Socket): void {
    this.end()
    const timer = setTimeout(() => this.destroy(), ms)
    timer.unref()
    this.once('end', () => this.destroy())
    this.once('close', () => clearTimeout(timer))
    this.resume()
  }
}
