/**
 * The exchange's holidays, for stepping from one trading day to the next
 * (time.ts, stepTradingDay): read once per year and session. A calendar
 * entry with session times is a special session (Muhurat trading), a
 * trading day.
 */
import { api } from "./api";

const years = new Map<number, Promise<ReadonlySet<string>>>();

export function holidaysOf(year: number): Promise<ReadonlySet<string>> {
  let found = years.get(year);
  if (!found) {
    found = api()
      .call("GET", "/v1/developer/holidays", { params: { query: { year } } })
      .then((answer) => new Set((answer.holidays ?? []).filter((h) => !h.sessionOpen).map((h) => h.date ?? "")));
    found.catch(() => years.delete(year)); // asked again next time
    years.set(year, found);
  }
  return found;
}
