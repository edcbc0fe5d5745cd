// After `vite build`: checks the first page's JavaScript against its budget
// and writes a gzip copy beside each text file, which the gateway sends to
// browsers that accept gzip (gateway/internal/gateway/webui.go).
//
// The first page's JavaScript is the entry chunk of index.html and every
// chunk it imports statically (the manifest's `imports`, followed through);
// chunks loaded later with import() (the chart, the admin pages) do not
// count. Its gzip size (level 9, what is sent) must stay within
// FIRST_PAGE_JS_BUDGET bytes, else the build fails.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

export const FIRST_PAGE_JS_BUDGET = 300 * 1000;

const outDir = path.resolve(process.env.MDC_WEB_OUT || "dist");
const manifest = JSON.parse(fs.readFileSync(path.join(outDir, ".vite", "manifest.json"), "utf8"));
const gzipSize = (file) => zlib.gzipSync(fs.readFileSync(path.join(outDir, file)), { level: 9 }).length;

const entry = Object.values(manifest).find((chunk) => chunk.isEntry);
if (!entry) throw new Error(`no entry chunk in ${outDir}/.vite/manifest.json`);
const firstPage = new Set();
const visit = (key) => {
  const chunk = manifest[key];
  if (!chunk || firstPage.has(chunk.file)) return;
  firstPage.add(chunk.file);
  for (const imported of chunk.imports ?? []) visit(imported);
};
visit(Object.keys(manifest).find((key) => manifest[key] === entry));

let total = 0;
for (const file of firstPage) {
  const size = gzipSize(file);
  total += size;
  console.log(`first page: ${file} ${size} bytes gzipped`);
}
console.log(`first page JavaScript: ${total} bytes gzipped (budget ${FIRST_PAGE_JS_BUDGET})`);
fs.writeFileSync(path.join(outDir, ".vite", "first-page-js.json"),
  JSON.stringify({ files: [...firstPage], gzipBytes: total, budgetBytes: FIRST_PAGE_JS_BUDGET }, null, 2) + "\n");
if (total > FIRST_PAGE_JS_BUDGET) {
  console.error(`the first page's JavaScript is ${total} bytes gzipped, over the budget of ${FIRST_PAGE_JS_BUDGET}: ` +
    "load the new code lazily (import()) or make it smaller");
  process.exit(1);
}

// Gzip copies of the text files, kept only where they are smaller.
const walk = (dir) => fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
  d.name.startsWith(".") ? [] : d.isDirectory() ? walk(path.join(dir, d.name)) : [path.join(dir, d.name)]);
for (const file of walk(outDir)) {
  if (!/\.(js|mjs|css|html|svg|json|txt)$/.test(file)) continue;
  const body = fs.readFileSync(file);
  const packed = zlib.gzipSync(body, { level: 9 });
  if (packed.length < body.length) fs.writeFileSync(file + ".gz", packed);
}
