#!/usr/bin/env node
// The post-build step of `make build`, run on the dist/ Trunk wrote:
//  1. a Content-Security-Policy <meta> in index.html, first in <head>. Trunk's loader is an
//     inline module script, allowed by the sha256 of its exact text, computed here because
//     Trunk writes the asset hashes into it; every other script is an external file of 'self'.
//     The same policy goes into dist/_headers, for hosts that read that file (Netlify,
//     Cloudflare Pages), and README.md says how to send it from any other host.
//  2. precompressed copies of every file, NAME.gz (gzip -9) and NAME.br (brotli 11), that
//     `make serve-dist` (scripts/serve-dist.mjs) and static hosts send by Accept-Encoding.
// Usage: node scripts/postbuild.mjs [DIST]   (default: dist)
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** The policy's directives, without the hashes of the inline scripts. */
export function policy(scriptHashes) {
  return [
    "default-src 'none'",
    `script-src 'self' 'wasm-unsafe-eval' ${scriptHashes.map((hash) => `'${hash}'`).join(' ')}`.trim(),
    "style-src 'self'",
    "img-src 'self'",
    // The wasm is fetched (and preloaded as="fetch") from this origin.
    "connect-src 'self'",
    "base-uri 'self'",
    "form-action 'none'",
    "object-src 'none'",
  ].join('; ');
}

/** The sha256 sources of every inline <script> (one without src) in an HTML document. */
export function inlineScriptHashes(html) {
  const hashes = [];
  for (const [, attributes, body] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc\s*=/i.test(attributes)) continue;
    hashes.push(`sha256-${crypto.createHash('sha256').update(body, 'utf8').digest('base64')}`);
  }
  return hashes;
}

const CSP_META = /\s*<meta http-equiv="Content-Security-Policy"[^>]*>/i;

/** index.html with the policy as its first <meta> after the charset (before any script or link). */
export function withPolicy(html) {
  const clean = html.replace(CSP_META, '');
  const csp = policy(inlineScriptHashes(clean));
  const charset = /<meta charset="utf-8"\s*\/?>/i;
  if (!charset.test(clean)) throw new Error('index.html has no <meta charset="utf-8">: the policy must follow it');
  return {
    csp,
    html: clean.replace(charset, (tag) => `${tag}\n    <meta http-equiv="Content-Security-Policy" content="${csp}" />`),
  };
}

/** The files a site serves: every file of the folder but the .gz/.br copies and _headers. */
export function siteFiles(dist) {
  return fs
    .readdirSync(dist, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && !/\.(gz|br)$/.test(entry.name) && entry.name !== '_headers')
    .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name))
    .sort();
}

/** The gzip (level 9) and brotli (quality 11) forms of some bytes. */
export function compressed(bytes) {
  return {
    gzip: zlib.gzipSync(bytes, { level: 9 }),
    brotli: zlib.brotliCompressSync(bytes, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
  };
}

/** Writes NAME.gz and NAME.br beside every file of the site. */
export function precompress(dist) {
  for (const file of siteFiles(dist)) {
    const { gzip, brotli } = compressed(fs.readFileSync(file));
    fs.writeFileSync(`${file}.gz`, gzip);
    fs.writeFileSync(`${file}.br`, brotli);
  }
}

function main() {
  const dist = path.resolve(process.argv[2] ?? 'dist');
  const index = path.join(dist, 'index.html');
  const { csp, html } = withPolicy(fs.readFileSync(index, 'utf8'));
  fs.writeFileSync(index, html);
  fs.writeFileSync(path.join(dist, '_headers'), `/*\n  Content-Security-Policy: ${csp}\n`);
  precompress(dist);
  console.log(`postbuild: ${path.relative(process.cwd(), dist) || '.'}: Content-Security-Policy: ${csp}`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
