/**
 * A running mdc for the tests, started and stopped by scripts/stack.sh, the one launcher every suite uses
 * (docs/architecture.md, "Test stacks"): a database mdc_tstest_<random> created through the superuser URL in
 * MDC_TEST_DATABASE_URL, MDC_SERVER_BIN and MDC_GATEWAY_BIN on free 127.0.0.1 ports, the first admin
 * bootstrapped through MDC_ADMIN_TOKEN. The script stops the stack when this node process dies.
 */
import { execFile, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ENV_VARS = ["MDC_SERVER_BIN", "MDC_GATEWAY_BIN", "MDC_TEST_DATABASE_URL"] as const;

/** Seconds between the heartbeats the server sends an idle watch (MDC_WATCH_HEARTBEAT): short, so that the
 * stream tests see heartbeats and can use a short idle timeout. */
export const WATCH_HEARTBEAT_SECONDS = 1;

/** scripts/stack.sh of the checkout this file was built in (dist/test/ of clients/typescript), also when a
 * package (web/, the example) reaches it through its node_modules link. */
const STACK_SH = process.env["MDC_STACK_SH"] ||
  path.join(fs.realpathSync(path.dirname(fileURLToPath(import.meta.url))), "..", "..", "..", "..", "scripts", "stack.sh");

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

/** Runs scripts/stack.sh with args; its stdout. Asynchronous: the tests' own servers (proxies) keep answering. */
function stackSh(...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile("bash", [STACK_SH, ...args], { timeout: 120_000, maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`stack.sh ${args.slice(0, 2).join(" ")}: ${stderr || error.message}`));
      else resolve(stdout);
    });
  });
}

/** What scripts/stack.sh start prints. */
interface Started {
  handle: string;
  dir: string;
  http_addr: string;
  admin_token: string;
  database: string;
  database_url: string;
  logs: { server: string; gateway: string };
}

export class Stack {
  private constructor(private readonly started: Started) {}

  get adminToken(): string {
    return this.started.admin_token;
  }

  get httpAddr(): string {
    return this.started.http_addr;
  }

  get dbName(): string {
    return this.started.database;
  }

  get logDir(): string {
    return this.started.dir;
  }

  get baseUrl(): string {
    return `http://${this.httpAddr}`;
  }

  /** Stops mdc-server (SIGTERM: it drains) and leaves the gateway running. */
  async stopServer(): Promise<void> {
    await stackSh("stop", this.started.handle, "server");
  }

  /** Kills mdc-server (SIGKILL: no drain) and leaves the gateway running; resolves once it is gone. */
  async killServer(): Promise<void> {
    await stackSh("kill", this.started.handle, "server");
  }

  /** Runs one SQL command on the stack's database; its unaligned output. */
  sql(command: string): string {
    return psql(this.started.database_url, command);
  }

  /** Starts mdc-server again on the same address and database; resolves once /health answers 200. */
  async startServer(): Promise<void> {
    await stackSh("resume", this.started.handle, "server");
  }

  /** Starts a stack; `gatewayEnv` adds to the gateway's environment (e.g. MDC_CORS_ORIGINS). */
  static async start(options: { gatewayEnv?: Record<string, string> } = {}): Promise<Stack> {
    const args = ["start", "--db-prefix", "mdc_tstest_", "--owner-pid", String(process.pid),
      "--server-env", `MDC_WATCH_HEARTBEAT=${WATCH_HEARTBEAT_SECONDS}`];
    for (const [key, value] of Object.entries(options.gatewayEnv ?? {})) args.push("--gateway-env", `${key}=${value}`);
    return new Stack(JSON.parse(await stackSh(...args)) as Started);
  }

  logs(): string {
    return Object.entries(this.started.logs)
      .map(([name, file]) => {
        const text = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
        return `--- mdc-${name} (${file}):\n${text.split("\n").slice(-40).join("\n")}`;
      })
      .join("\n");
  }

  /** Stops the gateway, then the server (SIGTERM, SIGKILL after 20 s), then drops the database. */
  async stop(keepLogs = false): Promise<void> {
    await stackSh("stop", this.started.handle, ...(keepLogs ? ["--keep"] : []));
  }
}

