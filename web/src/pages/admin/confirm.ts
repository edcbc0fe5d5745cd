/**
 * What an admin types to confirm deleting the data of some days: the day
 * itself for one, the count for several ("delete 3 days"), so the phrase
 * cannot be typed without reading what is about to go.
 */
export function confirmPhrase(dates: readonly string[]): string {
  return dates.length === 1 ? `delete ${dates[0]}` : `delete ${dates.length} days`;
}
