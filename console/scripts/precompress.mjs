// Precompresses the built console at build time: every text asset larger than 1 KiB gets a .gz
// (gzip level 9) and a .br (brotli, quality 11) beside it, kept only when smaller than the file.
// state-service serves the variant the browser accepts (ConsoleFiles), so nothing is compressed
// per request.
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const outDir = process.env.CONSOLE_OUT_DIR ?? 'target/classes/META-INF/resources/console';
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|map)$/;
const MIN_BYTES = 1024;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

let raw = 0;
let gz = 0;
let br = 0;
for (const path of [...files(outDir)]) {
  if (!COMPRESSIBLE.test(path)) continue;
  const content = readFileSync(path);
  if (content.length < MIN_BYTES) continue;
  const gzipped = gzipSync(content, { level: 9 });
  const brotli = brotliCompressSync(content, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
    },
  });
  raw += content.length;
  if (gzipped.length < content.length) {
    writeFileSync(`${path}.gz`, gzipped);
    gz += gzipped.length;
  }
  if (brotli.length < content.length) {
    writeFileSync(`${path}.br`, brotli);
    br += brotli.length;
  }
}
console.log(`console: precompressed ${raw} bytes to ${gz} (gzip) and ${br} (brotli)`);
