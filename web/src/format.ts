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
  return `${n > 0 ? "+" : n < 0 ? "-" : ""}${text}%`;
}

export function formatCount(n: number | null | undefined): string {
  return n === undefined || n === null || !Number.isFinite(n) ? "—" : count.format(n);
}

/** A price difference with its sign: "+12.50", "-3.00". */
export function formatSignedPrice(n: number | null | undefined): string {
  if (n === undefined || n === null || !Number.isFinite(n)) return "—";
  return `${n > 0 ? "+" : n < 0 ? "-" : ""}${price.format(Math.abs(n))}`;
}
