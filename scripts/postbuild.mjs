#!/usr/bin/env node
// The post-build step of `make build`, run on the dist/ Trunk wrote:
//  1. a Content-Security-Policy <meta> in index.html, first in <head>. Trunk's loader is an
//     inline module script, allowed by the sha256 of its exact text, computed here because
//     Trunk writes the asset hashes into it; every other script is an external file of 'self'.
//     The same policy goes into dist/_headers, for hosts that read that file (Netlify,
//     Cloudflare Pages), and README.md says how to send it from any other host.
//  2. the course map's markup, prerendered (when index.html has the PRERENDER marker): the app's
//     own render of `#/` for a learner with nothing saved, read from Chromium, so the map paints
//     before the WebAssembly arrives. An inline script (PRERENDER_OR_PRELOAD) shows it only where
//     it is exactly what the app renders, and src/main.rs removes it as the app mounts.
//  3. Trunk's preloads of the app's module and WebAssembly moved up to just after the policy, so
//     the browser asks for them at once, not after the stylesheet and the (blocking) theme script;
//     where the prerendered map shows, the WebAssembly is asked for once the map is painted.
//     The WebAssembly's preload loses its `integrity`: Trunk's loader fetches it without one, and
//     Chromium ignores it on a fetch preload with a console warning. The loader's size of the
//     WebAssembly (for the loading line's percentage) becomes the size of the file it fetches.
//  4. precompressed copies of every file, NAME.gz (gzip -9) and NAME.br (brotli 11), that
//     `make serve-dist` (scripts/serve-dist.mjs) and static hosts send by Accept-Encoding.
// Usage: node scripts/postbuild.mjs [DIST]   (default: dist)
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

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

/** Where index.html wants the course map's prerendered markup. */
export const PRERENDER = '<!-- prerender: the course map -->';

/**
 * The markup the app renders at `#/` for a learner with nothing saved: the body's elements
 * but the boot line and the scripts, each marked data-prerender. Form controls (and the skip link,
 * which needs the app) are inert until the app replaces them; links are real.
 */
export async function prerenderMap(dist) {
  // playwright-core is a test dependency: `make setup` installs it before `make build`.
  const require = createRequire(fileURLToPath(new URL('../tests/browser/package.json', import.meta.url)));
  const { chromium } = require('playwright-core');
  const { createServer } = await import('./serve-dist.mjs');
  // Served where the build expects to live (its <base href>, PUBLIC_URL), so its files load.
  const base = /<base\b[^>]*\bhref="([^"]*)"/i.exec(fs.readFileSync(path.join(dist, 'index.html'), 'utf8'))?.[1] ?? '/';
  const prefix = base.startsWith('/') ? (base.endsWith('/') ? base : `${base}/`) : '/';
  const server = createServer(dist, { prefix });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
  });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    await page.goto(`http://127.0.0.1:${server.address().port}${prefix}#/`);
    await page.locator('main.home .lesson-card').first().waitFor({ timeout: 30_000 });
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    if (errors.length > 0) throw new Error(`the course map logged errors: ${errors.join('; ')}`);
    return await page.evaluate(() =>
      [...document.body.children]
        .filter((element) => element.id !== 'boot' && !['SCRIPT', 'NOSCRIPT'].includes(element.tagName))
        .map((element) => {
          const copy = element.cloneNode(true);
          copy.setAttribute('data-prerender', '');
          for (const control of copy.querySelectorAll('button, input, select, textarea, .skip-link')) {
            control.setAttribute('inert', '');
          }
          return copy.outerHTML;
        })
        .join('\n'));
  } finally {
    await browser.close();
    server.closeAllConnections?.();
    server.close();
  }
}

const PRELOAD = /<link rel="(?:modulepreload|preload)"[^>]*>/gi;

/**
 * The inline script (allowed by its hash) that decides, before the first paint and before any
 * request the page makes, whether the prerendered map shows: only at the map's address (`/`,
 * `#`, `#/`) and only for a learner with nothing saved (no progress, no settings; keys namespaced
 * by the public URL's directory, none at the root, as in src/store/storage.rs), for whom it is
 * exactly what the app renders; there the WebAssembly is asked for once the map is painted (see
 * withWasmAfterMap). Anywhere else it is preloaded at once.
 */
export const PRERENDER_OR_PRELOAD = `(function () {
  var root = document.documentElement;
  try {
    var path = new URL(document.baseURI).pathname;
    var prefix = path.slice(0, path.lastIndexOf('/') + 1);
    if (prefix === '/') prefix = '';
    var saved = function (name) { return localStorage.getItem(prefix + 'idempotency-lab/' + name) !== null; };
    if (/^#?\\/?$/.test(location.hash) && !saved('settings') && !saved('progress')) {
      root.classList.add('prerendered');
      // Trunk's loader awaits this: the map's first paint, or a second at most.
      window.idempotencyLabPainted = new Promise(function (resolve) {
        setTimeout(resolve, 1000);
        new PerformanceObserver(function (list) {
          if (list.getEntriesByName('first-contentful-paint').length > 0) resolve();
        }).observe({ type: 'paint', buffered: true });
      });
      return;
    }
  } catch (error) {}
  document.head.appendChild(document.getElementById('wasm-preload').content.cloneNode(true));
})();`;

/**
 * index.html with Trunk's preload links (written last in <head>) first after the policy. With
 * `wasmHeld`, the WebAssembly's preload is held in a <template id="wasm-preload"> that
 * PRERENDER_OR_PRELOAD puts in the page at every address but the prerendered map's.
 */
export function withEarlyPreloads(html, { wasmHeld = false } = {}) {
  let held = null;
  const preloads = (html.match(PRELOAD) ?? []).flatMap((link) => {
    if (!/\bas="fetch"/.test(link)) return [link];
    const preload = link.replace(/\s+integrity="[^"]*"/, '');
    if (!wasmHeld) return [preload];
    held = `<template id="wasm-preload">${preload}</template>\n    <script>${PRERENDER_OR_PRELOAD}</script>`;
    return [];
  });
  if (preloads.length === 0 && held === null) return html;
  const after = (text, anchor, insert) => {
    const at = anchor.index + anchor[0].length;
    return `${text.slice(0, at)}\n    ${insert}${text.slice(at)}`;
  };
  let rest = html.replace(PRELOAD, '');
  const top = CSP_META.exec(rest) ?? /<meta charset="utf-8"\s*\/?>/i.exec(rest);
  if (!top) throw new Error('index.html has no <meta charset="utf-8">: the preloads must follow it');
  rest = after(rest, top, preloads.join('\n    '));
  // After <base>, so the script reads the public URL's directory as static/theme.js does.
  return held === null ? rest : after(rest, /<base\b[^>]*>/i.exec(rest) ?? top, held);
}

/**
 * index.html whose loader, where the prerendered map shows, asks for the WebAssembly only once
 * the map is painted (PRERENDER_OR_PRELOAD's promise `idempotencyLabPainted`): on a slow link the map's
 * first paint does not share it with half a megabyte the map does not need to show.
 */
export function withWasmAfterMap(html) {
  const call = /^const wasm = await __trunkInitializer\(/m;
  if (!call.test(html)) throw new Error("index.html has no Trunk loader call to hold until the map's paint");
  return html.replace(call, (line) => `await window.idempotencyLabPainted;\n${line}`);
}

/**
 * index.html with the loader's size of each WebAssembly file (Trunk writes the size before
 * wasm-opt) replaced by the size of the file in `dist`.
 */
export function withWasmSizes(html, dist) {
  return html.replace(/__trunkInitializer\(init, '([^']+\.wasm)', (\d+),/g, (call, source, size) => {
    const file = path.join(dist, path.basename(source));
    return fs.existsSync(file) ? call.replace(`, ${size},`, `, ${fs.statSync(file).size},`) : call;
  });
}

async function main() {
  const dist = path.resolve(process.argv[2] ?? 'dist');
  const index = path.join(dist, 'index.html');
  let built = fs.readFileSync(index, 'utf8');
  const prerender = built.includes(PRERENDER);
  if (prerender) {
    const markup = await prerenderMap(dist);
    built = withWasmAfterMap(built.replace(PRERENDER, () => markup));
    console.log(`postbuild: ${path.relative(process.cwd(), dist) || '.'}: the course map prerendered (${markup.length} bytes)`);
  }
  // The policy last: it hashes every inline script of the page as it is written.
  const { csp, html } = withPolicy(withEarlyPreloads(withWasmSizes(built, dist), { wasmHeld: prerender }));
  fs.writeFileSync(index, html);
  fs.writeFileSync(path.join(dist, '_headers'), `/*\n  Content-Security-Policy: ${csp}\n`);
  precompress(dist);
  console.log(`postbuild: ${path.relative(process.cwd(), dist) || '.'}: Content-Security-Policy: ${csp}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
