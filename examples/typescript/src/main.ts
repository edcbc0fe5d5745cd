/**
 * Prints what the strategy (strategy.ts) would have bought on one day.
 *
 *   MDC_URL=http://127.0.0.1:8080 MDC_TOKEN=mdc_... node dist/src/main.js [--load-sample] [--threshold 2.5] [YYYY-MM-DD]
 *
 * --load-sample first saves the made-up day of sample_day.ts (2025-03-04,
 * the default day) through the client.
 */
import { parseArgs } from "node:util";
import { MdcClient, MdcError } from "@mdc/client";
import { loadSampleDay, SAMPLE_DAY } from "./sample_day.js";
import { formatBuy, walkDay } from "./strategy.js";

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { "load-sample": { type: "boolean" }, threshold: { type: "string" } },
  });
  const url = process.env["MDC_URL"];
  const token = process.env["MDC_TOKEN"];
  if (!url || !token) {
    console.error("set MDC_URL (the gateway) and MDC_TOKEN (a developer token)");
    return 2;
  }
  const day = positionals[0] ?? SAMPLE_DAY;
  const thresholdPerc = values.threshold === undefined ? undefined : Number(values.threshold);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || (thresholdPerc !== undefined && !Number.isFinite(thresholdPerc))) {
    console.error("usage: main.js [--load-sample] [--threshold PERCENT] [YYYY-MM-DD]");
    return 2;
  }
  const client = new MdcClient({ baseUrl: url, token, runId: `ts-example-${day}` });
  try {
    if (values["load-sample"]) await loadSampleDay(client);
    const buys = await walkDay(client, day, thresholdPerc === undefined ? {} : { thresholdPerc });
    for (const buy of buys) console.log(formatBuy(buy));
    console.log(`${buys.length} buys on ${day}`);
    return 0;
  } catch (error) {
    if (!(error instanceof MdcError)) throw error;
    console.error(`stopped: ${error}`);
    for (const v of error.fieldViolations) console.error(`  ${v.field}: ${v.description}`);
    return 1;
  }
}

process.exitCode = await main();
