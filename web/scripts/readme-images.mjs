// The README's screenshots of the dashboard are made by the browser suite
// (e2e/fixtures.ts, readmeShot), never by hand. After the suite ran:
//
//   node scripts/readme-images.mjs check SHOTS_DIR    fails unless the images
//     the README links under docs/images/dashboard/, the files committed there
//     and the ones the suite made are the same set of names
//   node scripts/readme-images.mjs update SHOTS_DIR   copies the suite's images
//     into docs/images/dashboard/ (and removes the ones it no longer makes)
//
// Names are compared, not pixels: fonts and timings differ between machines.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const [mode, shots] = process.argv.slice(2);
if (!["check", "update"].includes(mode) || !shots) {
  console.error("usage: readme-images.mjs check|update SHOTS_DIR");
  process.exit(2);
}
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const committedDir = path.join(root, "docs/images/dashboard");
const pngs = (dir) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith(".png")).sort() : []);
const made = pngs(shots);
const linked = [...fs.readFileSync(path.join(root, "README.md"), "utf8").matchAll(/\(docs\/images\/dashboard\/([\w.-]+\.png)\)/g)]
  .map((m) => m[1]).sort();
const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

if (!same(made, [...new Set(linked)])) {
  console.error(`readme-images: the README links ${JSON.stringify(linked)} under docs/images/dashboard/, ` +
    `but the suite makes ${JSON.stringify(made)}: make them agree (e2e readmeShot, README.md)`);
  process.exit(1);
}
if (mode === "update") {
  fs.mkdirSync(committedDir, { recursive: true });
  for (const stale of pngs(committedDir).filter((f) => !made.includes(f))) fs.rmSync(path.join(committedDir, stale));
  for (const f of made) fs.copyFileSync(path.join(shots, f), path.join(committedDir, f));
  console.log(`readme-images: docs/images/dashboard/ now holds ${made.join(", ")}`);
} else if (!same(pngs(committedDir), made)) {
  console.error(`readme-images: docs/images/dashboard/ holds ${JSON.stringify(pngs(committedDir))}, the suite makes ` +
    `${JSON.stringify(made)}: run web/run_tests.sh with MDC_UPDATE_README_IMAGES=1 and commit the images`);
  process.exit(1);
} else {
  console.log(`readme-images: the README's ${made.length} dashboard images are the suite's (${made.join(", ")})`);
}
