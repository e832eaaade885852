// Requests being answered, so a shutdown can wait for them and no longer; and per socket, so an HTTP error
// on a connection never writes over an answer being given on it (server/client-errors.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export class InFlight {
  #count = 0;
  #whenIdle = () => {};
  readonly #perSocket = new WeakMap<Socket, number>();
  readonly #closeWhenAnswered = new WeakSet<Socket>();

  get count(): number {
    return this.#count;
  }

  /**
   * Counts the request until its response closes; a socket marked by closeAfter() ends once its last answer is given.
   */
  track(req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket;
    this.#count++;
    this.#perSocket.set(socket, (this.#perSocket.get(socket) ?? 0) + 1);
    res.once('close', () => {
      const left = this.#perSocket.get(socket)! - 1;
      this.#perSocket.set(socket, left);
      if (left === 0 && this.#closeWhenAnswered.has(socket)) socket.end();
      if (--this.#count === 0) this.#whenIdle();
    });
  }

  /** Whether a request on this connection is being answered. */
  busy(socket: Socket): boolean {
    return (this.#perSocket.get(socket) ?? 0) > 0;
  }

  /** Ends the connection once every request on it is answered. */
  closeAfter(socket: Socket): void {
    this.#closeWhenAnswered.add(socket);
  }

  /** Calls `then` when the last request in flight is answered. */
  whenIdle(then: () => void): void {
    this.#whenIdle = then;
  }
}
