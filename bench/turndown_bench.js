// turndown (with its bundled domino DOM) on the same inputs as content_bench: the bundled pages
// listed in DIR/bundled.txt and DIR/large.html. MB of input HTML per second, parse included.
//
//   node bench/turndown_bench.js DIR [seconds]
'use strict';

const fs = require('fs');
const path = require('path');
const TurndownService = require('turndown');

const dir = process.argv[2];
const seconds = Number(process.argv[3] || 2);

function throughput(inputs) {
  const service = new TurndownService();
  let bytes = 0;
  let markdown = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0;
  do {
    markdown = 0;
    for (const html of inputs) {
      markdown += Buffer.byteLength(service.turndown(html));
      bytes += Buffer.byteLength(html);
    }
    elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  } while (elapsed < seconds);
  return { mbs: bytes / 1e6 / elapsed, markdown };
}

const bundled = fs
  .readFileSync(path.join(dir, 'bundled.txt'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((file) => fs.readFileSync(file, 'utf8'));
const large = [fs.readFileSync(path.join(dir, 'large.html'), 'utf8')];

throughput(bundled.slice(0, 5)); // warm-up: let V8 compile the hot paths
const b = throughput(bundled);
const l = throughput(large);
console.log(`result: turndown_bundled_mb_s=${b.mbs.toFixed(2)}`);
console.log(`result: turndown_large_mb_s=${l.mbs.toFixed(2)}`);
console.log(`result: turndown_bundled_md_kb=${(b.markdown / 1e3).toFixed(0)}`);
console.log(`result: turndown_large_md_kb=${(l.markdown / 1e3).toFixed(0)}`);
console.log(`result: turndown_version=${require('turndown/package.json').version}`);
