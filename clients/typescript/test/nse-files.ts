// What the tests of NSE's files share (docs/api.md section 13.2).

/** An ISIN of the 11 characters `body` and its ISO 6166 check digit (letters as 10-35, then Luhn over the
 * digits), which the server checks. */
export function isinWithCheckDigit(body: string): string {
  const digits = [...body].map((c) => (/[A-Z]/.test(c) ? String(c.charCodeAt(0) - 55) : c)).join("");
  let total = 0;
  [...digits].reverse().forEach((d, i) => {
    const n = Number(d) * (i % 2 === 0 ? 2 : 1);
    total += n > 9 ? n - 9 : n;
  });
  return body + String((10 - (total % 10)) % 10);
}

/** 03-Jan-2035, as NSE writes dates. */
export function nseDate(day: string): string {
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  const [y, m, d] = day.split("-");
  return `${d}-${months[Number(m) - 1]}-${y}`;
}
