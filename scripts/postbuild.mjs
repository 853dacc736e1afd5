#!/usr/bin/env node
// The post-build step of `make build`, run on the dist/ Trunk wrote:
//  1. a Content-Security-Policy <meta> in index.html, first in <head>. Trunk's loader is an
//     inline module script, allowed by the sha256 of its exact text, computed here because
//     Trunk writes the asset hashes into it; every other script is an external file of 'self'.
//     The same policy goes into dist/_headers, for hosts that read that file (Netlify,
//     Cloudflare Pages), and README.md says how to send it from any other host.
//  2. the course map's markup, prerendered (when index.html has the PRERENDER marker): the app's
//     own render of `#/` for a learner with nothing saved, read from Chromium, so the map paints
//     before the WebAssembly arrives; and each lesson's first step the same way, at `#/lesson/ID`,
//     in its own file (prerender/lesson-ID.html) that only that address fetches, with its
//     buttons disabled and a line saying the lab is loading. An inline script
//     (prerenderOrPreload) shows them only where they are exactly what the app renders, and
//     src/main.rs removes them as the app mounts.
//  3. Trunk's preloads of the app's module and WebAssembly moved up to just after the policy, so
//     the browser asks for them at once, not after the stylesheet and the (blocking) theme script;
//     where the prerendered map or lesson shows, the WebAssembly is asked for once it is painted.
//     The WebAssembly's preload loses its `integrity`: Trunk's loader fetches it without one, and
//     Chromium ignores it on a fetch preload with a console warning. The loader's size of the
//     WebAssembly (for the loading line's percentage) becomes the size of the file it fetches.
//     At an address only the whole app serves (WHOLE_ADDRESS: the sandbox, a challenge, ...),
//     the script preloads the whole app's WebAssembly instead, and the loader starts the whole
//     app rather than the first module (withWholeLoader), which would only hand over to it.
//  4. the service worker (dist/sw.js, from static/sw.js) given the list of the build's files to
//     cache and the build's version (a hash of them all), so a new build is a new worker.
//  5. precompressed copies of every file, NAME.gz (gzip -9) and NAME.br (brotli 11), that
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
    // The second module's Web Worker and the service worker, from this origin only.
    "worker-src 'self'",
    "manifest-src 'self'",
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

/** The folder of dist/ that holds each lesson's prerendered first step, LESSON_PRERENDERS/lesson-ID.html. */
export const LESSON_PRERENDERS = 'prerender';

/** The folder of dist/ that holds each lesson's file, LESSON_FILES/lesson-ID-HASH.json (build.rs
 * writes them, scripts/lesson-files.mjs copies them here); the app fetches one when a page needs it. */
export const LESSON_FILES = 'lessons';

/** Each lesson's file in `dist`, by lesson id: { ID: 'lesson-ID-HASH.json' }. */
export function lessonFiles(dist) {
  const folder = path.join(dist, LESSON_FILES);
  if (!fs.existsSync(folder)) return {};
  return Object.fromEntries(fs.readdirSync(folder)
    .map((name) => /^lesson-([a-z0-9-]+)-[0-9a-f]{16}\.json$/.exec(name))
    .filter(Boolean)
    .map(([name, id]) => [id, name]));
}

/**
 * The status line a prerendered lesson shows until the app is there (its buttons are disabled
 * until then). Fixed to the bottom of the screen, so it takes no room: the app's page, which has
 * no such line, replaces the prerendered one without moving anything.
 */
export const LESSON_STATUS = '<p class="prerender-status" role="status">Loading the lab…</p>';

/**
 * The page's own elements as markup, run in the page (page.evaluate): the body's children but the
 * boot line and the scripts, each marked data-prerender (a lesson's `data-prerender="lesson"`), with the state of every form control
 * written as attributes (a range's position, a select's choice), which the app sets as properties.
 * Links are real. Form controls wait for the app: `disable` disables them (marking the ones the app
 * shows enabled data-prerender-disabled, so they can be told from the app's own disabled ones);
 * otherwise they are inert. The skip link, which needs the app, is inert. Markup read this way
 * from a prerendered page is the markup it was built from.
 */
export function bodyMarkup(disable) {
  const kind = disable ? 'lesson' : '';
  const fields = 'input, select, textarea';
  return [...document.body.children]
    .filter((element) => element.id !== 'boot' && !['SCRIPT', 'NOSCRIPT'].includes(element.tagName))
    .map((element) => {
      const copy = element.cloneNode(true);
      const copies = copy.querySelectorAll(fields);
      element.querySelectorAll(fields).forEach((field, index) => {
        const written = copies[index];
        if (field.tagName === 'SELECT') {
          [...field.options].forEach((option, at) => written.options[at].toggleAttribute('selected', option.selected));
        } else if (field.tagName === 'TEXTAREA') {
          written.textContent = field.value;
        } else if (field.type === 'checkbox' || field.type === 'radio') {
          written.toggleAttribute('checked', field.checked);
        } else if (field.type !== 'file') {
          written.setAttribute('value', field.value);
        }
      });
      copy.setAttribute('data-prerender', kind);
      for (const control of copy.querySelectorAll('button, input, select, textarea')) {
        if (!disable) control.setAttribute('inert', '');
        else if (!control.disabled) {
          control.setAttribute('disabled', '');
          control.setAttribute('data-prerender-disabled', '');
        }
      }
      for (const link of copy.querySelectorAll('.skip-link')) link.setAttribute('inert', '');
      return copy.outerHTML;
    })
    .join('\n');
}

/**
 * The markup the app renders for a learner with nothing saved, read from Chromium: at `#/` (the
 * course map, for index.html) and at `#/lesson/ID` for every lesson the map links to (its first
 * step, with LESSON_STATUS at the top of its main). Resolves to { map, lessons: [[id, markup]] }.
 */
export async function prerender(dist) {
  // playwright-core is a test dependency: `make setup` installs it before `make build`.
  const require = createRequire(fileURLToPath(new URL('../tests/browser/package.json', import.meta.url)));
  const { chromium } = require('playwright-core');
  const { basePath, createServer } = await import('./serve-dist.mjs');
  // Served where the build expects to live (its <base href>, PUBLIC_URL), so its files load.
  const prefix = basePath(fs.readFileSync(path.join(dist, 'index.html'), 'utf8'));
  const server = createServer(dist, { prefix });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
  });
  /** The page at `hash` in a fresh context (nothing saved), once `ready` shows and two frames passed. */
  const read = async (hash, ready, disable) => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
      await page.goto(`http://127.0.0.1:${server.address().port}${prefix}${hash}`);
      await page.locator(ready).first().waitFor({ timeout: 30_000 });
      await page.waitForFunction(() => !document.querySelector('[data-prerender]'));
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      if (errors.length > 0) throw new Error(`${hash} logged errors: ${errors.join('; ')}`);
      return {
        markup: await page.evaluate(bodyMarkup, disable),
        lessons: await page.evaluate(() =>
          [...document.querySelectorAll('main a[href^="#/lesson/"]')].map((link) => link.getAttribute('href').slice('#/lesson/'.length))),
      };
    } finally {
      await context.close();
    }
  };
  try {
    const map = await read('#/', 'main.home .lesson-card', false);
    const lessons = [];
    for (const id of new Set(map.lessons)) {
      if (!/^[a-z0-9-]+$/.test(id)) throw new Error(`the course map links to a lesson id the prerender cannot name a file after: ${JSON.stringify(id)}`);
      const { markup } = await read(`#/lesson/${id}`, 'main.lesson .stepper', true);
      lessons.push([id, markup.replace(/(<main\b[^>]*>)/, (tag) => `${tag}${LESSON_STATUS}`)]);
    }
    return { map: map.markup, lessons };
  } finally {
    await browser.close();
    server.closeAllConnections?.();
    server.close();
  }
}

const PRELOAD = /<link rel="(?:modulepreload|preload)"[^>]*>/gi;

/**
 * The inline script (allowed by its hash) that decides, before the first paint and before any
 * request the page makes, whether prerendered markup shows: only for a learner with nothing saved
 * (no progress, no settings; keys namespaced by the public URL's directory, none at the root, as
 * in src/store/storage.rs), for whom it is exactly what the app renders, and only at
 *  - the map's address (`/`, `#`, `#/`): the map in index.html;
 *  - a lesson's address with no step (`#/lesson/ID`, ID one of `lessons`): its first step,
 *    fetched from LESSON_PRERENDERS/lesson-ID.html (a file of this build, from 'self') and put
 *    after the loading line as soon as the parser has written that line, so usually before the
 *    first paint; not if the app started first (it removes the loading line).
 * Where one shows, Trunk's loader asks for the WebAssembly only once it is painted (the promise
 * `idempotencyLabPainted`, see withWasmAfterMap): on a slow link the prerendered page does not
 * share the link with half a megabyte it does not need, and the app's identical render does not
 * count as the page's largest paint. A lesson's working Next button comes that much later (the
 * WebAssembly is asked for once the browser reports the lesson as the largest paint, not at
 * once). Anywhere else the WebAssembly is preloaded at once. If the learner
 * follows a link before the app is there, the prerendered page hides (the loading line
 * shows) until the app shows the new one.
 */
export function prerenderOrPreload(lessons, files = {}) {
  return `(function () {
  var root = document.documentElement;
  var held = false;
  try {
    // At a lesson's address, its file (${LESSON_FILES}/, which the app fetches) beside everything else.
    var files = ${JSON.stringify(files)};
    var asked = /^#\\/(?:embed\\/)?lesson\\/([a-z0-9-]+)/.exec(location.hash);
    if (asked && Object.prototype.hasOwnProperty.call(files, asked[1])) {
      var link = document.createElement('link');
      link.rel = 'preload';
      link.as = 'fetch';
      link.crossOrigin = 'anonymous';
      link.href = '${LESSON_FILES}/' + files[asked[1]];
      document.head.appendChild(link);
    }
    var path = new URL(document.baseURI).pathname;
    var prefix = path.slice(0, path.lastIndexOf('/') + 1);
    if (prefix === '/') prefix = '';
    var saved = function (name) { return localStorage.getItem(prefix + 'idempotency-lab/' + name) !== null; };
    var fresh = !saved('settings') && !saved('progress');
    var away = function (here) {
      addEventListener('hashchange', function () {
        if (!here()) root.classList.remove('prerendered', 'prerendered-lesson');
      });
    };
    var map = /^#?\\/?$/;
    var shown = location.hash;
    var lesson = /^#\\/lesson\\/([a-z0-9-]+)$/.exec(shown);
    if (fresh && map.test(shown)) {
      root.classList.add('prerendered');
      away(function () { return map.test(location.hash); });
      // The map's first paint, or a second at most.
      window.idempotencyLabPainted = new Promise(function (resolve) {
        setTimeout(resolve, 1000);
        new PerformanceObserver(function (list) {
          if (list.getEntriesByName('first-contentful-paint').length > 0) resolve();
        }).observe({ type: 'paint', buffered: true });
      });
      held = true;
    } else if (fresh && lesson && ${JSON.stringify(lessons)}.indexOf(lesson[1]) >= 0) {
      // The lesson's first paint, or a second at most.
      window.idempotencyLabPainted = new Promise(function (painted) {
        setTimeout(painted, 1000);
        var show = function (markup) {
          var boot = document.getElementById('boot');
          if (!markup || !boot || location.hash !== shown) return painted();
          var template = document.createElement('template');
          template.innerHTML = markup;
          boot.after(template.content);
          root.classList.add('prerendered', 'prerendered-lesson');
          away(function () { return location.hash === shown; });
          // The map's markup in index.html goes once parsed (CSS hides it until then).
          var dropMap = function () {
            document.querySelectorAll('[data-prerender=""]').forEach(function (node) { node.remove(); });
          };
          if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', dropMap);
          else dropMap();
          // The WebAssembly once the browser reports the lesson as the page's largest paint. Asked
          // for any earlier (as soon as the lesson is in the page, or a frame later), it could be
          // on its way before that paint, and a load measured on a slow link then waits for it:
          // Lighthouse scored the lesson 81 to 88 in 3 of 5 runs (LCP 3.8 s) instead of 98.
          new PerformanceObserver(function (list, observer) {
            var lessonPainted = list.getEntries().some(function (entry) {
              return entry.element && entry.element.closest('[data-prerender="lesson"]');
            });
            if (lessonPainted) { observer.disconnect(); painted(); }
          }).observe({ type: 'largest-contentful-paint', buffered: true });
        };
        fetch(new URL('${LESSON_PRERENDERS}/lesson-' + lesson[1] + '.html', document.baseURI))
          .then(function (response) { return response.ok ? response.text() : ''; })
          // A host that answers a missing file with index.html must not put that in the page.
          .then(function (markup) { return /^<[a-z]+ [^>]*data-prerender="lesson"/.test(markup) ? markup : ''; })
          .then(function (markup) {
            if (document.getElementById('boot') || document.readyState !== 'loading') return show(markup);
            var parser = new MutationObserver(function () {
              if (document.getElementById('boot')) { parser.disconnect(); show(markup); }
            });
            parser.observe(root, { childList: true, subtree: true });
          })
          .catch(function () { painted(); });
      });
      held = true;
    }
  } catch (error) {}
  // An address only the whole app serves: its WebAssembly at once (Trunk's loader then starts it,
  // withWholeLoader), and not the first module's.
  var whole = false;
  try { whole = ${WHOLE_ADDRESS}.test(location.hash); } catch (error) {}
  if (whole) {
    window.idempotencyLabWholeAddress = true;
    document.head.appendChild(document.getElementById('whole-preload').content.cloneNode(true));
  } else if (!held) document.head.appendChild(document.getElementById('wasm-preload').content.cloneNode(true));
})();`;
}

/** The whole app's files (src/bin/idempotency-lab-whole.rs), beside index.html. */
export const WHOLE = 'idempotency-lab-whole';

/**
 * The addresses (a location's hash) that only the whole app serves, as a regular expression's
 * source: the sandbox, shared scenarios, challenges and their embeds, the builder, the engine
 * and retry pages. src/route.rs's `in_first_module` is the app's own answer; where the two ever
 * disagree the page still opens (the first module hands over, or the whole app serves a lesson),
 * only later.
 */
export const WHOLE_ADDRESS = String.raw`/^#\/(?:scenario\/|embed\/(?!lesson\/[^/]+\/[^/]+)|engine\/?$|retries\/?$|sandbox(?:\/|$)|challenge\/|make-challenge(?:\/|$))/`;

/**
 * index.html whose loader starts the whole app (when the build has one) instead of the first module where the page's
 * inline script found an address only the whole app serves (`idempotencyLabWholeAddress`), with
 * the same progress line and failure message (static/boot.js).
 */
export function withWholeLoader(html, dist) {
  // A site with one module (the minimal app `make bench` measures beside the lab) stays as it is.
  const file = path.join(dist, `${WHOLE}_bg.wasm`);
  if (!fs.existsSync(file)) return html;
  const call = /^const wasm = await (__trunkInitializer\(init, '([^']+)_bg\.wasm', \d+, initializer\(\), true\));$/m;
  const found = call.exec(html);
  if (!found) throw new Error("index.html has no Trunk loader call to give the whole app's addresses to the whole app");
  const prefix = found[2].slice(0, found[2].lastIndexOf('/') + 1);
  const whole = `import('${prefix}${WHOLE}.js').then((glue) => __trunkInitializer(glue.default, '${prefix}${WHOLE}_bg.wasm', ${fs.statSync(file).size}, initializer(), true), (reason) => initializer().onFailure(reason))`;
  return html.replace(call, () => `const wasm = await (window.idempotencyLabWholeAddress\n  ? ${whole}\n  : ${found[1]});`);
}

/**
 * index.html with Trunk's preload links (written last in <head>) first after the policy. With
 * `held` (the script of prerenderOrPreload), the WebAssembly's preload is held in a
 * <template id="wasm-preload"> that the script puts in the page at every address but the
 * prerendered map's.
 */
export function withEarlyPreloads(html, { held: script = null } = {}) {
  let held = null;
  const preloads = (html.match(PRELOAD) ?? []).flatMap((link) => {
    if (!/\bas="fetch"/.test(link)) return [link];
    const preload = link.replace(/\s+integrity="[^"]*"/, '');
    if (script === null) return [preload];
    const whole = preload.replace(/href="([^"]*\/)?[^"/]+_bg\.wasm"/, (_, prefix = '') => `href="${prefix}${WHOLE}_bg.wasm"`);
    held = `<template id="wasm-preload">${preload}</template>\n    <template id="whole-preload">${whole}</template>\n    <script>${script}</script>`;
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
 * index.html whose loader, where prerendered markup shows, asks for the WebAssembly only once that
 * is painted (prerenderOrPreload's promise `idempotencyLabPainted`): on a slow link the
 * prerendered page does not share the link with half a megabyte it does not need. (Trunk's loader
 * stays a deferred module: made `async`, so it would start compiling while the page still parses,
 * the lesson's working Next button came later, by `make bench-site`'s measure of when it works.)
 */
export function withWasmAfterMap(html) {
  const call = /^const wasm = await __trunkInitializer\(/m;
  if (!call.test(html)) throw new Error("index.html has no Trunk loader call to hold until the prerendered page is shown");
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

/** The service worker's file: it caches the files of the build. */
export const SERVICE_WORKER = 'sw.js';

/**
 * dist/sw.js with the files it caches (every file of the site but itself and index.html, which it
 * caches as './', as URLs relative to it) and the build's version: the first 16 hex digits of a
 * sha256 over every file's name and bytes. Returns { files, version }.
 */
export function withServiceWorkerFiles(dist) {
  const worker = path.join(dist, SERVICE_WORKER);
  if (!fs.existsSync(worker)) return null;
  const hash = crypto.createHash('sha256');
  const files = [];
  for (const file of siteFiles(dist)) {
    const name = path.relative(dist, file).split(path.sep).join('/');
    if (name === SERVICE_WORKER) continue;
    hash.update(name).update(fs.readFileSync(file));
    if (name !== 'index.html') files.push(name);
  }
  const version = hash.digest('hex').slice(0, 16);
  let text = fs.readFileSync(worker, 'utf8');
  const list = /^const FILES = null;$/m;
  if (!list.test(text)) throw new Error(`${worker} has no "const FILES = null;" line to write the build's files into`);
  text = text.replace(list, () => `const FILES = ${JSON.stringify(files)};`)
    .replace(/^const VERSION = 'unbuilt';$/m, () => `const VERSION = '${version}';`);
  fs.writeFileSync(worker, text);
  return { files, version };
}

async function main() {
  const dist = path.resolve(process.argv[2] ?? 'dist');
  const index = path.join(dist, 'index.html');
  let built = fs.readFileSync(index, 'utf8');
  const where = path.relative(process.cwd(), dist) || '.';
  let script = null;
  if (built.includes(PRERENDER)) {
    const { map, lessons } = await prerender(dist);
    built = withWasmAfterMap(built.replace(PRERENDER, () => map));
    fs.mkdirSync(path.join(dist, LESSON_PRERENDERS), { recursive: true });
    for (const [id, markup] of lessons) fs.writeFileSync(path.join(dist, LESSON_PRERENDERS, `lesson-${id}.html`), markup);
    script = prerenderOrPreload(lessons.map(([id]) => id), lessonFiles(dist));
    const sizes = lessons.map(([, markup]) => markup.length);
    console.log(`postbuild: ${where}: the course map prerendered (${map.length} bytes), and the first step of ${lessons.length} lessons (${Math.min(...sizes)} to ${Math.max(...sizes)} bytes each, in ${LESSON_PRERENDERS}/)`);
  }
  // The policy last: it hashes every inline script of the page as it is written.
  const { csp, html } = withPolicy(withEarlyPreloads(withWasmSizes(withWholeLoader(built, dist), dist), { held: script }));
  fs.writeFileSync(index, html);
  fs.writeFileSync(path.join(dist, '_headers'), `/*\n  Content-Security-Policy: ${csp}\n`);
  const cached = withServiceWorkerFiles(dist);
  if (cached) console.log(`postbuild: ${where}: ${SERVICE_WORKER} caches ${cached.files.length + 1} files, version ${cached.version}`);
  precompress(dist);
  console.log(`postbuild: ${where}: Content-Security-Policy: ${csp}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
