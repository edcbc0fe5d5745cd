/**
 * A TCP proxy for the cut-download tests: it holds an answer after its first bytes until the test
 * releases it, so the test can kill mdc-server while a download is surely under way (a gate, not a
 * sleep), and passes on how the answer ended: a reset as a reset, a close as a close.
 */
import net from "node:net";

export class GateProxy {
  /** Resolves when the first bytes of an answer have been passed on; the answer then waits for release(). */
  readonly firstBytes: Promise<void>;
  private seen!: () => void;
  private released = false;
  private held: (() => void)[] = [];
  private readonly sockets = new Set<net.Socket>();

  private constructor(
    private readonly server: net.Server,
    /** "127.0.0.1:port" the proxy listens on. */
    readonly addr: string,
  ) {
    this.firstBytes = new Promise((resolve) => (this.seen = resolve));
  }

  /** Listens on a free 127.0.0.1 port and forwards every connection to upstream ("host:port"). */
  static async start(upstream: string): Promise<GateProxy> {
    const colon = upstream.lastIndexOf(":");
    const [host, port] = [upstream.slice(0, colon), Number(upstream.slice(colon + 1))];
    let proxy: GateProxy | undefined;
    const server = net.createServer({ allowHalfOpen: true }, (client) => proxy!.forward(client, host, port));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    proxy = new GateProxy(server, `127.0.0.1:${(server.address() as net.AddressInfo).port}`);
    return proxy;
  }

  /** Lets the held answers go on. */
  release(): void {
    this.released = true;
    for (const resume of this.held.splice(0)) resume();
  }

  async close(): Promise<void> {
    this.release();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  private forward(client: net.Socket, host: string, port: number): void {
    const upstream = net.connect({ host, port, allowHalfOpen: true });
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.once("close", () => this.sockets.delete(socket));
    }
    const pipe = (src: net.Socket, dst: net.Socket, answer: boolean) => {
      src.on("data", (chunk) => {
        dst.write(chunk);
        if (answer && !this.released) {
          // Hold the rest of the answer until release().
          src.pause();
          this.held.push(() => src.resume());
          this.seen();
        }
      });
      src.on("end", () => dst.end());
      // A reset passed on as a reset.
      src.on("error", () => dst.resetAndDestroy());
    };
    pipe(client, upstream, false);
    pipe(upstream, client, true);
  }
}
