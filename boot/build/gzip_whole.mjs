// Gzip a file as one member with Zopfli (npm: @gfx/zopfli), about 7% smaller than zlib's best
// level on the site's zips; called by app_zip.py beside it (`gzip_whole`) at build time.
//
// usage: node boot/build/gzip_whole.mjs <input> <output.gz>
//
// The member's header holds no file name and no time (Zopfli writes neither), so the same
// input gives the same bytes.
import fs from "fs";
import { gzipAsync } from "@gfx/zopfli";

const [input, output] = process.argv.slice(2);
if (!output) {
  console.error("usage: node boot/build/gzip_whole.mjs <input> <output.gz>");
  process.exit(2);
}
fs.writeFileSync(output, await gzipAsync(fs.readFileSync(input), { numiterations: 15 }));
