// Bundles the dashboard with esbuild into OUT (the ui jar's META-INF/trainyard-ui/): hashed
// assets/app-HASH.{js,css} for a long cache, index.html (never cached) pointing at them, and
// manifest.json naming them for the gateway's own pages. Prints the gzip size of what a browser
// downloads, which README quotes.
import { build } from "esbuild";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { gzipSync } from "node:zlib";

const out = resolve(process.argv[2] ?? "dist");
rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, "assets"), { recursive: true });

const result = await build({
  entryPoints: { app: "src/main.jsx" },
  bundle: true,
  minify: true,
  format: "esm",
  target: ["es2022"],
  jsx: "automatic",
  jsxImportSource: "preact",
  outdir: join(out, "assets"),
  entryNames: "[name]-[hash]",
  assetNames: "[name]-[hash]",
  metafile: true,
  legalComments: "linked",
  logLevel: "warning",
});

const outputs = Object.keys(result.metafile.outputs).map((p) => resolve(p));
const js = outputs.find((p) => p.endsWith(".js"));
const css = outputs.find((p) => p.endsWith(".css"));
const manifest = { js: "assets/" + basename(js), css: "assets/" + basename(css) };
writeFileSync(join(out, "manifest.json"), JSON.stringify(manifest) + "\n");

// No inline script or style: the page is the two files and an empty root.
const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Trainyard</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/${manifest.css}">
<script type="module" src="/${manifest.js}"></script>
</head>
<body>
<div id="app"><p class="boot">Loading Trainyard…</p></div>
</body>
</html>
`;
writeFileSync(join(out, "index.html"), html);

let total = 0;
for (const p of [js, css]) {
  const raw = readFileSync(p);
  const gz = gzipSync(raw, { level: 9 }).length;
  total += gz;
  console.log(`ui: ${basename(p)} ${(raw.length / 1024).toFixed(1)} KiB, gzip ${(gz / 1024).toFixed(1)} KiB`);
}
console.log(`ui: total gzip ${(total / 1024).toFixed(1)} KiB`);
