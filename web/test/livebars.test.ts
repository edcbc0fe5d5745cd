import { describe, expect, it } from "vitest";
import { LiveSeries, applyQuote, baseOf } from "../src/pages/chart/livebars";
import { bars } from "../src/pages/chart/chartdata";
import { chartTime } from "../src/time";

const at = (hhmmss: string) => new Date(`2025-01-02T${hhmmss}+05:30`);
const session = { open: at("09:15:00").getTime(), close: at("15:30:00").getTime(), intervalMinutes: 5 };

describe("live quotes onto the bars", () => {
  it("extends the bar of the quote's bucket, the volume by the cumulative increase", () => {
    // The day so far: one 5-minute candle 09:15 from quotes at 09:15 (vol 100) and 09:16 (vol 150).
    const day = bars([{ time: "2025-01-02T03:45:00Z", open: 10, high: 11, low: 10, close: 11, volume: 150 }]);
    const live = new LiveSeries(session, day.prices, day.volumes, [
      { time: at("09:15:00"), price: 10, volume: 100 }, { time: at("09:16:00"), price: 11, volume: 150 },
    ]);
    const same = live.apply({ time: at("09:18:30"), price: 9.5, volume: 190 });
    expect(same).toMatchObject({ kind: "update", bar: { time: chartTime(at("09:15:00")), open: 10, high: 11, low: 9.5, close: 9.5 }, volume: { value: 190 } });
    const next = live.apply({ time: at("09:20:00"), price: 12, volume: 200 });
    expect(next).toMatchObject({ kind: "update", bar: { time: chartTime(at("09:20:00")), open: 12, high: 12, low: 12, close: 12 }, volume: { value: 10 } });
  });

  it("ignores quotes outside the session and without a price, and asks for a reload on a rewrite", () => {
    const live = new LiveSeries(session, [], [], []);
    expect(live.apply({ time: at("09:10:00"), price: 5, volume: 1 }).kind).toBe("ignore");
    expect(live.apply({ time: at("15:30:00"), price: 5, volume: 1 }).kind).toBe("ignore");
    expect(live.apply({ time: at("09:30:00"), price: null, volume: 500 }).kind).toBe("ignore");
    // The first priced quote's volume is the whole cumulative value (the one without a price did not count).
    expect(live.apply({ time: at("09:31:00"), price: 7, volume: 600 })).toMatchObject({ kind: "update", volume: { value: 600 } });
    expect(live.apply({ time: at("09:31:00"), price: 8, volume: 600 }).kind).toBe("reload");
  });

  it("counts a counter that went back from zero, like the server", () => {
    const base = baseOf([{ time: at("09:15:00"), price: 10, volume: 1000 }], session);
    const step = applyQuote(undefined, base, { time: at("09:16:00"), price: 10, volume: 40 }, session);
    expect(step).toMatchObject({ kind: "update", volume: { value: 40 } });
  });
});
