/** Numbers for people: prices with 2 decimals (Indian digit grouping), percentages, counts. */

const price = new Intl.NumberFormat("en-IN", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const count = new Intl.NumberFormat("en-IN", { maximumFractionDigits: 0 });

export function formatPrice(n: number | null | undefined): string {
  return n === undefined || n === null || !Number.isFinite(n) ? "—" : price.format(n);
}

/** "+1.25%" / "-0.50%": the sign always shown, so gains and losses read apart. */
export function formatPercent(n: number | null | undefined, digits = 2): string {
  if (n === undefined || n === null || !Number.isFinite(n)) return "—";
  const text = Math.abs(n).toFixed(digits);
  // A value that rounds to zero has no sign ("0.00%", not "-0.00%").
  const zero = Number(text) === 0;
  return `${n > 0 && !zero ? "+" : n < 0 && !zero ? "-" : ""}${text}%`;
}

export function formatCount(n: number | null | undefined): string {
  return n === undefined || n === null || !Number.isFinite(n) ? "—" : count.format(n);
}

/** A price difference with its sign: "+12.50", "-3.00". */
export function formatSignedPrice(n: number | null | undefined): string {
  if (n === undefined || n === null || !Number.isFinite(n)) return "—";
  const text = price.format(Math.abs(n));
  const zero = Math.abs(n) < 0.005;
  return `${n > 0 && !zero ? "+" : n < 0 && !zero ? "-" : ""}${text}`;
}
