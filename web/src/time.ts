/**
 * Times in the dashboard are shown in IST (Asia/Kolkata, UTC+05:30, no
 * daylight saving since 1945), the exchange's zone, and sent to the API as
 * IST wall clocks with timezone "Asia/Kolkata". IST is a fixed offset, so the
 * conversions are plain arithmetic: the same answer on every machine,
 * whatever its own zone or ICU data.
 */

export const IST_ZONE = "Asia/Kolkata";
export const IST_LABEL = "IST";
const OFFSET_MS = 330 * 60_000;

const pad = (n: number, width = 2): string => String(n).padStart(width, "0");

/** The IST calendar fields of an instant. */
function fields(at: Date): { y: number; mo: number; d: number; h: number; mi: number; s: number } {
  const t = new Date(at.getTime() + OFFSET_MS);
  return {
    y: t.getUTCFullYear(), mo: t.getUTCMonth() + 1, d: t.getUTCDate(),
    h: t.getUTCHours(), mi: t.getUTCMinutes(), s: t.getUTCSeconds(),
  };
}

function asDate(at: Date | string): Date | undefined {
  const d = typeof at === "string" ? new Date(at) : at;
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** The IST trading date of an instant: "2025-01-02". */
export function istDate(at: Date): string {
  const f = fields(at);
  return `${pad(f.y, 4)}-${pad(f.mo)}-${pad(f.d)}`;
}

/** The IST time of day: "10:30:05", or "10:30" without seconds. */
export function istTime(at: Date, seconds = true): string {
  const f = fields(at);
  return seconds ? `${pad(f.h)}:${pad(f.mi)}:${pad(f.s)}` : `${pad(f.h)}:${pad(f.mi)}`;
}

/**
 * An instant for people: "2025-01-02 10:30:05 IST". An absent or unreadable
 * value is "—". `zone: false` leaves the zone out (for table cells whose
 * column header names it).
 */
export function formatIST(at: Date | string | null | undefined, opts: { seconds?: boolean; zone?: boolean } = {}): string {
  const d = at === undefined || at === null ? undefined : asDate(at);
  if (!d) return "—";
  const text = `${istDate(d)} ${istTime(d, opts.seconds ?? true)}`;
  return opts.zone === false ? text : `${text} ${IST_LABEL}`;
}

/** The IST wall clock the API takes with timezone Asia/Kolkata: "2025-01-02T10:30:00". */
export function istWallClock(at: Date): string {
  return `${istDate(at)}T${istTime(at)}`;
}

const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * The instant of an IST wall clock "2025-01-02T10:30" or "...T10:30:15" (what
 * a datetime-local input gives), or undefined when it is not one (including
 * impossible dates such as February 30th).
 */
export function parseISTWallClock(text: string): Date | undefined {
  const m = WALL_CLOCK.exec(text.trim());
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map((x) => Number(x ?? 0)) as [number, number, number, number, number, number];
  const utc = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(utc);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) {
    return undefined;
  }
  return new Date(utc - OFFSET_MS);
}

/** The value of a datetime-local input showing `at` in IST: "2025-01-02T10:30". */
export function toInputValue(at: Date): string {
  return `${istDate(at)}T${istTime(at, false)}`;
}

/** Today's date in IST. */
export function todayIST(now: Date = new Date()): string {
  return istDate(now);
}

/** True for a "YYYY-MM-DD" that names a real calendar date. */
export function isDate(text: string): boolean {
  return parseISTWallClock(`${text}T00:00`) !== undefined;
}

/**
 * The time lightweight-charts is given for an instant: seconds since the
 * epoch, shifted by IST's offset. The chart labels its axis in UTC, so the
 * shifted value reads as IST there (the library's own advice for showing
 * another zone).
 */
export function chartTime(at: Date): number {
  return Math.floor((at.getTime() + OFFSET_MS) / 1000);
}

/** Whole minutes between two instants, for "minutes to target" style columns. */
export function minutesBetween(from: Date, to: Date): number {
  return Math.floor((to.getTime() - from.getTime()) / 60_000);
}
