/**
 * A running mdc for the tests, as clients/python/tests/mdc_stack.py does it:
 * a database mdc_tstest_<random> created through the superuser URL in
 * MDC_TEST_DATABASE_URL (with psql), MDC_SERVER_BIN and MDC_GATEWAY_BIN on
 * free 127.0.0.1 ports, the first admin bootstrapped through MDC_ADMIN_TOKEN.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const ENV_VARS = ["MDC_SERVER_BIN", "MDC_GATEWAY_BIN", "MDC_TEST_DATABASE_URL"] as const;

/** Seconds between the heartbeats the server sends an idle watch (MDC_WATCH_HEARTBEAT): short, so that the
 * stream tests see heartbeats and can use a short idle timeout. */
export const WATCH_HEARTBEAT_SECONDS = 1;

export function missingEnv(): string[] {
  return ENV_VARS.filter((name) => !process.env[name]);
}

export async function freeAddr(): Promise<string> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(`127.0.0.1:${port}`));
    });
  });
}

export function randomToken(): string {
  return "mdc_" + randomBytes(32).toString("base64url");
}

export function psql(dbUrl: string, sql: string): string {
  const binary = fs.existsSync("/usr/bin/psql") ? "/usr/bin/psql" : "psql";
  const result = spawnSync(
    binary,
    ["--no-psqlrc", "--quiet", "--tuples-only", "--no-align", "--set=ON_ERROR_STOP=1", `--dbname=${dbUrl}`, `--command=${sql}`],
    { encoding: "utf8", timeout: 60_000 },
  );
  if (result.status !== 0) throw new Error(`psql ${sql}: ${result.stderr || result.error}`);
  return result.stdout.trim();
}

export class Stack {
  private constructor(
    readonly adminToken: string,
    readonly httpAddr: string,
    readonly dbName: string,
    readonly logDir: string,
    private readonly children: { name: string; child: ChildProcess }[],
    private readonly startServerProcess: () => { name: string; child: ChildProcess },
  ) {}

  /** Stops mdc-server (SIGTERM: it drains) and leaves the gateway running. */
  async stopServer(): Promise<void> {
    const server = this.children.find((c) => c.name === "mdc-server")!;
    await stopChild(server.child);
  }

  /** Kills mdc-server (SIGKILL: no drain) and leaves the gateway running; resolves once it is gone. */
  async killServer(): Promise<void> {
    const { child } = this.children.find((c) => c.name === "mdc-server")!;
    if (child.exitCode !== null || child.signalCode !== null) throw new Error("mdc-server is not running");
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGKILL");
    await exited;
  }

  /** Runs one SQL command on the stack's database; its unaligned output. */
  sql(command: string): string {
    const url = new URL(process.env["MDC_TEST_DATABASE_URL"]!);
    url.pathname = "/" + this.dbName;
    return psql(url.toString(), command);
  }

  /** Starts mdc-server again on the same address and database; resolves once /health answers 200. */
  async startServer(): Promise<void> {
    const i = this.children.findIndex((c) => c.name === "mdc-server");
    this.children[i] = this.startServerProcess();
    await this.waitHealthy();
  }

  get baseUrl(): string {
    return `http://${this.httpAddr}`;
  }

  /** Starts a stack; `gatewayEnv` adds to the gateway's environment (e.g. MDC_CORS_ORIGINS). */
  static async start(options: { gatewayEnv?: Record<string, string> } = {}): Promise<Stack> {
    const superUrl = process.env["MDC_TEST_DATABASE_URL"]!;
    const dbName = "mdc_tstest_" + randomBytes(6).toString("hex");
    psql(superUrl, `CREATE DATABASE ${dbName}`);
    const url = new URL(superUrl);
    url.pathname = "/" + dbName;
    const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "mdc-tstest-"));
    const adminToken = randomToken();
    const grpcAddr = await freeAddr();
    const httpAddr = await freeAddr();
    const run = (name: string, binary: string, env: Record<string, string>) => {
      const log = fs.openSync(path.join(logDir, `${name}.log`), "a");
      const child = spawn(binary, [], { env: { ...process.env, ...env }, stdio: ["ignore", log, log] });
      fs.closeSync(log);
      return { name, child };
    };
    const startServer = () => run("mdc-server", process.env["MDC_SERVER_BIN"]!, {
      DATABASE_URL: url.toString(),
      MDC_GRPC_ADDR: grpcAddr,
      MDC_ADMIN_TOKEN: adminToken,
      MDC_METRICS_ADDR: "",
      MDC_DB_POOL_SIZE: "4",
      MDC_SECRET_KEY: "",
      MDC_BROKER_TOKEN_URL: "",
      MDC_WATCH_HEARTBEAT: String(WATCH_HEARTBEAT_SECONDS),
    });
    const children = [
      startServer(),
      run("mdc-gateway", process.env["MDC_GATEWAY_BIN"]!, { MDC_HTTP_ADDR: httpAddr, MDC_GRPC_ADDR: grpcAddr, ...options.gatewayEnv }),
    ];
    const stack = new Stack(adminToken, httpAddr, dbName, logDir, children, startServer);
    try {
      await stack.waitHealthy();
    } catch (error) {
      await stack.stop(true);
      throw error;
    }
    return stack;
  }

  async waitHealthy(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let last = "no answer yet";
    for (;;) {
      for (const { name, child } of this.children) {
        if (child.exitCode !== null || child.signalCode !== null) {
          throw new Error(`${name} exited (${child.exitCode ?? child.signalCode})\n${this.logs()}`);
        }
      }
      try {
        const response = await fetch(this.baseUrl + "/health", { signal: AbortSignal.timeout(2000) });
        if (response.status === 200) return;
        last = `status ${response.status}`;
      } catch (error) {
        last = String(error);
      }
      if (Date.now() > deadline) throw new Error(`/health did not answer 200 (last: ${last})\n${this.logs()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  logs(): string {
    return this.children
      .map(({ name }) => {
        const file = path.join(this.logDir, `${name}.log`);
        const text = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
        return `--- ${name} (${file}):\n${text.split("\n").slice(-40).join("\n")}`;
      })
      .join("\n");
  }

  /** Stops the gateway, then the server (SIGTERM, SIGKILL after 20 s), then drops the database. */
  async stop(keepLogs = false): Promise<void> {
    for (const { child } of [...this.children].reverse()) await stopChild(child);
    psql(process.env["MDC_TEST_DATABASE_URL"]!, `DROP DATABASE IF EXISTS ${this.dbName} WITH (FORCE)`);
    if (!keepLogs) fs.rmSync(this.logDir, { recursive: true, force: true });
  }
}

/** SIGTERM, then SIGKILL after 20 s; resolves once the process is gone. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  await exited;
  clearTimeout(timer);
}
