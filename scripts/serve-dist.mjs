#!/usr/bin/env node
// Serves dist/ the way a static host does: each file's precompressed NAME.br or NAME.gz (written
// by scripts/postbuild.mjs) when the request's Accept-Encoding allows it, with Content-Encoding
// and Vary; long caching for Trunk's content-hashed files, none for the rest (index.html, the
// service worker, the second module, the manifest); index.html for any path that is not a file
// (the app routes by the hash). `make serve-dist` runs it; the site benchmark
// (tests/browser/bench-site.js) and the prerender (scripts/postbuild.mjs) import createServer.
// Usage: node scripts/serve-dist.mjs [DIST] [PORT]   (default: dist 8081)
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
};

/** A file name with Trunk's content hash in it (`style-0123456789abcdef.css`). */
const HASHED = /(^|-)[0-9a-f]{16}([-_.]|$)/;

/** The encodings a request accepts (q=0 excluded), e.g. Set { 'br', 'gzip' }. */
export function acceptedEncodings(header = '') {
  const accepted = new Set();
  for (const part of header.split(',')) {
    const [name, ...parameters] = part.trim().toLowerCase().split(';');
    const q = parameters.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name);
  }
  return accepted;
}

function isFile(file) {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The path a build's index.html (its text) expects to be served under: its <base href>, or `/`. */
export function basePath(html) {
  const base = /<base\b[^>]*\bhref="([^"]*)"/i.exec(html)?.[1] ?? '/';
  if (!base.startsWith('/')) return '/';
  return base.endsWith('/') ? base : `${base}/`;
}

/** An http.Server for the folder; not yet listening. */
export function createServer(root, { prefix = '/' } = {}) {
  const dist = path.resolve(root);
  const index = path.join(dist, 'index.html');
  return http.createServer((request, response) => {
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    } catch {
      response.writeHead(400, { 'content-type': 'text/plain' }).end('bad request');
      return;
    }
    // A build for a sub-path (PUBLIC_URL=/sub/path/) is served under that path.
    if (pathname.startsWith(prefix)) pathname = `/${pathname.slice(prefix.length)}`;
    let file = path.join(dist, path.normalize(pathname));
    if (!file.startsWith(dist + path.sep) || !isFile(file)) file = index; // also stops ../ escapes
    const headers = {
      'content-type': TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
      // Only a file whose name holds its hash is the same file for ever; the service worker, the
      // second module (Trunk names a worker's files without a hash) and the manifest are not.
      'cache-control': HASHED.test(path.basename(file)) ? 'public, max-age=31536000, immutable' : 'no-cache',
      vary: 'Accept-Encoding',
    };
    const accepted = acceptedEncodings(request.headers['accept-encoding']);
    let body = file;
    for (const [encoding, suffix] of [['br', '.br'], ['gzip', '.gz']]) {
      if (accepted.has(encoding) && isFile(file + suffix)) {
        headers['content-encoding'] = encoding;
        body = file + suffix;
        break;
      }
    }
    headers['content-length'] = fs.statSync(body).size;
    response.writeHead(200, headers);
    if (request.method === 'HEAD') response.end();
    else fs.createReadStream(body).pipe(response);
  });
}

function main() {
  const root = process.argv[2] ?? 'dist';
  const port = Number(process.argv[3] ?? 8081);
  if (!isFile(path.join(root, 'index.html'))) {
    console.error(`${root}/index.html is missing: run make build first`);
    process.exit(1);
  }
  // Where the build expects to live (its <base href>, PUBLIC_URL): a sub-path build there.
  const prefix = basePath(fs.readFileSync(path.join(root, 'index.html'), 'utf8'));
  createServer(root, { prefix }).listen(port, '127.0.0.1', () => {
    console.log(`serving ${root}/ compressed on http://127.0.0.1:${port}${prefix} (Ctrl-C stops)`);
  });
}

if (import.meta.url === `file://${process.argv[1]}`) main();
