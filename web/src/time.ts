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

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** A date typed by a person, checked: the date, or what is wrong with it in words. */
export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/** Checks "YYYY-MM-DD" (ISO, whatever the browser's locale): "2025-02-30" is refused with the reason. */
export function checkDate(text: string): Checked<string> {
  const t = text.trim();
  if (!t) return { ok: false, error: "Enter a date as YYYY-MM-DD, for example 2025-01-02." };
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t);
  if (!m) return { ok: false, error: `“${t}” is not a date: write it as YYYY-MM-DD (year, month, day), for example 2025-01-02.` };
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12) return { ok: false, error: `There is no month ${mo}: months go from 01 to 12.` };
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  if (d < 1 || d > days) return { ok: false, error: `${MONTHS[mo - 1]} ${y} has ${days} days: there is no day ${d}.` };
  return { ok: true, value: `${pad(y, 4)}-${pad(mo)}-${pad(d)}` };
}

/**
 * Checks an IST date and time typed as "YYYY-MM-DD HH:MM" or
 * "YYYY-MM-DD HH:MM:SS" (a "T" instead of the space is fine): the API's wall
 * clock "YYYY-MM-DDTHH:MM:SS", or what is wrong in words.
 */
export function checkWallClock(text: string): Checked<string> {
  const t = text.trim();
  if (!t) return { ok: false, error: "Enter a date and time as YYYY-MM-DD HH:MM (IST), for example 2025-01-02 10:30." };
  const m = /^(\S+)[ T](\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(t);
  if (!m) return { ok: false, error: `“${t}” is not a date and time: write YYYY-MM-DD HH:MM (IST), for example 2025-01-02 10:30.` };
  const day = checkDate(m[1]!);
  if (!day.ok) return day;
  const [h, mi, s] = [Number(m[2]), Number(m[3]), Number(m[4] ?? 0)];
  if (h > 23 || mi > 59 || s > 59) return { ok: false, error: `${m[2]}:${m[3]}${m[4] ? `:${m[4]}` : ""} is not a time of day: hours go to 23, minutes and seconds to 59.` };
  return { ok: true, value: `${day.value}T${pad(h)}:${pad(mi)}:${pad(s)}` };
}

/** The wall clock "YYYY-MM-DDTHH:MM:SS" as the forms show it: "2025-01-02 10:30:00". */
export function showWallClock(wall: string): string {
  return wall.replace("T", " ");
}

/** The day before or after a "YYYY-MM-DD" date, as "YYYY-MM-DD". */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d + days));
  return `${pad(t.getUTCFullYear(), 4)}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
}

/**
 * The previous (step -1) or next (step 1) trading day: weekends and the
 * given holidays ("YYYY-MM-DD") skipped.
 */
export function stepTradingDay(date: string, step: -1 | 1, holidays: ReadonlySet<string> = new Set()): string {
  let day = date;
  for (let i = 0; i < 30; i++) {
    day = addDays(day, step);
    const [y, m, d] = day.split("-").map(Number) as [number, number, number];
    const weekday = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
    if (weekday !== 0 && weekday !== 6 && !holidays.has(day)) return day;
  }
  return day;
}

/** 09:15 IST of a trading day ("YYYY-MM-DD"), the session's open, and its close at 15:30. */
export function sessionOf(date: string): { open: Date; close: Date } {
  return { open: new Date(`${date}T09:15:00+05:30`), close: new Date(`${date}T15:30:00+05:30`) };
}

/** "3 min ago", "2 h 5 min ago", "4 days ago": how long before `now` an instant was. */
export function ago(at: Date, now: Date = new Date()): string {
  const s = Math.max(0, Math.round((now.getTime() - at.getTime()) / 1000));
  if (s < 60) return `${s} s ago`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min ago`;
  const h = Math.floor(min / 60);
  if (h < 48) return `${h} h ${min % 60} min ago`;
  return `${Math.floor(h / 24)} days ago`;
}
