import { describe, expect, it } from "vitest";
import { bollinger, ema, rsi, sma, vwap } from "../src/pages/chart/indicators";

// Values worked out by hand (shown in the comments), not by the code under test.
describe("indicators", () => {
  const closes = [10, 11, 12, 11, 13, 14];

  it("SMA(3): the mean of the last three closes", () => {
    // (10+11+12)/3 = 11, (11+12+11)/3 = 11.333.., (12+11+13)/3 = 12, (11+13+14)/3 = 12.666..
    const out = sma(closes, 3);
    expect(out.slice(0, 2)).toEqual([undefined, undefined]);
    expect(out[2]).toBeCloseTo(11, 10);
    expect(out[3]).toBeCloseTo(34 / 3, 10);
    expect(out[4]).toBeCloseTo(12, 10);
    expect(out[5]).toBeCloseTo(38 / 3, 10);
  });

  it("EMA(3): seeded with the first SMA, k = 0.5", () => {
    // seed 11; 11*0.5 + 11*0.5 = 11; 13*0.5 + 11*0.5 = 12; 14*0.5 + 12*0.5 = 13
    expect(ema(closes, 3)).toEqual([undefined, undefined, 11, 11, 12, 13]);
  });

  it("Bollinger bands (3, 2): the SMA +- two population standard deviations", () => {
    // window 10,11,12: mean 11, variance (1+0+1)/3 = 2/3, sd 0.8165; bands 11 +- 1.63299
    const { middle, upper, lower } = bollinger(closes, 3, 2);
    expect(middle[2]).toBeCloseTo(11, 10);
    expect(upper[2]).toBeCloseTo(11 + 2 * Math.sqrt(2 / 3), 10);
    expect(lower[2]).toBeCloseTo(9.367006838, 8);
    // window 11,13,14: mean 38/3, deviations -5/3, 1/3, 4/3: variance (25+1+16)/27 = 42/27
    expect(upper[5]).toBeCloseTo(38 / 3 + 2 * Math.sqrt(42 / 27), 10);
    expect(upper[1]).toBeUndefined();
  });

  it("RSI(3), Wilder's smoothing", () => {
    // changes +1 +1 -1 +2 +1; first averages: gain 2/3, loss 1/3 -> RS 2, RSI 66.667
    // then gain (2/3*2 + 2)/3 = 10/9, loss (1/3*2)/3 = 2/9 -> RS 5, RSI 83.333
    // then gain (10/9*2 + 1)/3 = 29/27, loss (2/9*2)/3 = 4/27 -> RS 7.25, RSI 87.879
    const out = rsi(closes, 3);
    expect(out.slice(0, 3)).toEqual([undefined, undefined, undefined]);
    expect(out[3]).toBeCloseTo(200 / 3, 8);
    expect(out[4]).toBeCloseTo(250 / 3, 8);
    expect(out[5]).toBeCloseTo(100 - 100 / 8.25, 8);
    expect(rsi([1, 2, 3, 4], 2)).toEqual([undefined, undefined, 100, 100]);
  });

  it("VWAP starts again with each session", () => {
    const out = vwap([
      { high: 12, low: 9, close: 9, volume: 100, session: "a" }, // typical 10
      { high: 13, low: 11, close: 12, volume: 300, session: "a" }, // typical 12: (1000 + 3600) / 400 = 11.5
      { high: 21, low: 19, close: 20, volume: 50, session: "b" }, // a new session: 20
      { high: 20, low: 20, close: 20, volume: 0, session: "c" }, // no volume yet: undefined
    ]);
    expect(out).toEqual([10, 11.5, 20, undefined]);
  });
});
