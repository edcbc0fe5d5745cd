/**
 * A TCP proxy for the tests that can make the connections it carries die
 * silently, as a network black hole does: no reset, no FIN, no error, just
 * nothing more. Connections accepted afterwards are forwarded normally.
 */
import net from "node:net";

export class BlackHoleProxy {
  /** Connections accepted so far. */
  accepted = 0;
  private readonly sockets = new Set<net.Socket>();
  private readonly holes: { set: boolean }[] = [];

  private constructor(
    private readonly server: net.Server,
    /** "127.0.0.1:port" the proxy listens on. */
    readonly addr: string,
  ) {}

  /** Listens on a free 127.0.0.1 port and forwards every connection to upstream ("host:port"). */
  static async start(upstream: string): Promise<BlackHoleProxy> {
    const colon = upstream.lastIndexOf(":");
    const [host, port] = [upstream.slice(0, colon), Number(upstream.slice(colon + 1))];
    let proxy: BlackHoleProxy | undefined;
    const server = net.createServer({ allowHalfOpen: true }, (client) => proxy!.forward(client, host, port));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    proxy = new BlackHoleProxy(server, `127.0.0.1:${(server.address() as net.AddressInfo).port}`);
    return proxy;
  }

  /** Every connection open now stops forwarding in both directions; its sockets stay open and what
   * arrives on them is dropped. */
  blackHole(): void {
    for (const hole of this.holes) hole.set = true;
  }

  /** Stops listening and closes every connection. */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  private forward(client: net.Socket, host: string, port: number): void {
    this.accepted++;
    const upstream = net.connect({ host, port, allowHalfOpen: true });
    const hole = { set: false };
    this.holes.push(hole);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.once("close", () => this.sockets.delete(socket));
    }
    const pipe = (src: net.Socket, dst: net.Socket) => {
      src.on("data", (chunk) => {
        if (!hole.set) dst.write(chunk);
      });
      src.on("end", () => {
        if (!hole.set) dst.end();
      });
      src.on("error", () => {
        if (!hole.set) dst.destroy();
      });
    };
    pipe(client, upstream);
    pipe(upstream, client);
  }
}
