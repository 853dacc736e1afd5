#!/usr/bin/env node
// What each part of a WebAssembly module weighs: the module's function bodies grouped by the
// crate that defines each function (read from the name section rustc writes, before wasm-bindgen
// and wasm-opt strip it), and its data. `make bench-site` prints it for both of the lab's
// modules. Sizes are raw bytes before wasm-opt, and each group's gzip alone: figures to compare
// parts, not the shipped file's size.
// Usage: node scripts/wasm-parts.mjs FILE.wasm
import fs from 'node:fs';
import zlib from 'node:zlib';

/** The parts, in the order printed; a crate not named here is "other". */
export const PARTS = [
  ['views (the lab\'s own code)', ['idempotency_lab']],
  ['Yew, router, bindings', ['yew', 'yew_router', 'route_recognizer', 'implicit_clone', 'gloo', 'gloo_utils', 'gloo_events', 'gloo_timers', 'gloo_storage', 'gloo_file', 'gloo_console', 'gloo_history', 'serde_wasm_bindgen', 'getrandom', 'web_sys', 'js_sys', 'wasm_bindgen', 'wasm_bindgen_futures', 'console_error_panic_hook', 'prokio', 'futures', 'futures_util', 'futures_core', 'futures_channel', 'slab', 'indexmap', 'hashbrown', 'pin_project', 'tracing', 'tracing_core', 'urlencoding', 'serde_urlencoded', 'form_urlencoded', 'percent_encoding', 'bincode', 'once_cell', 'thiserror', 'anymap2', 'nohash_hasher']],
  ['core, alloc, std, fmt', ['core', 'alloc', 'std', 'compiler_builtins', 'dlmalloc', 'rustc_demangle']],
  ['serde, serde_json', ['serde', 'serde_core', 'serde_json', 'itoa', 'ryu', 'zmij', 'memchr']],
  ['TOML', ['toml', 'toml_parser', 'toml_writer', 'toml_datetime', 'serde_spanned', 'winnow', 'toml_edit']],
  ['engine', ['lab_engine', 'arcstr', 'smallvec']],
  ['course model, share codec, deflate, postcard', ['lab_course', 'miniz_oxide', 'adler2', 'base64', 'postcard', 'cobs']],
  ['worker protocol and loop', ['lab_worker']],
];

function leb(bytes, at) {
  let value = 0;
  let shift = 0;
  let byte;
  do {
    byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return [value, at];
}

/** The crate a (legacy-mangled or plain) function name belongs to. */
export function crateOf(name) {
  let text = name;
  if (text.startsWith('_ZN')) {
    const [, length, rest] = /^_ZN(\d+)(.*)$/.exec(text) ?? [];
    text = rest?.slice(0, Number(length)) ?? text;
    // `<impl Trait for T>::f`: the type's crate (a derive's code is its type's).
    const forType = /\$u20\$for\$u20\$(?:\$RF\$|mut\$u20\$)*([a-z_][a-z0-9_]*)\.\./.exec(text);
    if (forType && !['core', 'alloc'].includes(forType[1])) return forType[1];
    // `<&mut T as Trait>::f`: the type's crate; a bare generic `T`, the trait's.
    text = text.replace(/^_?\$LT\$/, '').replace(/^impl\$u20\$/, '').replace(/^(?:\$RF\$|mut\$u20\$|\$u5b\$|\$LP\$)+/, '');
    text = text.replace(/^[A-Z][A-Za-z0-9]*(?:\$LT\$.*?\$GT\$)?\$u20\$as\$u20\$/, '');
  }
  const crate = /^(?:<|_\$LT\$)?([A-Za-z_][A-Za-z0-9_]*)(?:::|\.\.|$)/.exec(text);
  return crate ? crate[1] : 'other';
}

/** { total, data, parts: [{ part, raw, gzip }] } for a module's bytes. */
export function wasmParts(bytes) {
  let at = 8;
  let imported = 0;
  const bodies = [];
  const names = new Map();
  let data = 0;
  while (at < bytes.length) {
    const id = bytes[at++];
    let size;
    [size, at] = leb(bytes, at);
    const end = at + size;
    if (id === 2) {
      let count;
      let p;
      [count, p] = leb(bytes, at);
      for (let index = 0; index < count; index += 1) {
        for (let string = 0; string < 2; string += 1) {
          let length;
          [length, p] = leb(bytes, p);
          p += length;
        }
        const kind = bytes[p++];
        if (kind === 0) { imported += 1; [, p] = leb(bytes, p); }
        else if (kind === 1) { p += 1; const flags = bytes[p++]; [, p] = leb(bytes, p); if (flags & 1) [, p] = leb(bytes, p); }
        else if (kind === 2) { const flags = bytes[p++]; [, p] = leb(bytes, p); if (flags & 1) [, p] = leb(bytes, p); }
        else if (kind === 3) p += 2;
        else if (kind === 4) { p += 1; [, p] = leb(bytes, p); }
      }
    } else if (id === 10) {
      let count;
      let p;
      [count, p] = leb(bytes, at);
      for (let index = 0; index < count; index += 1) {
        let length;
        [length, p] = leb(bytes, p);
        bodies.push(bytes.subarray(p, p + length));
        p += length;
      }
    } else if (id === 11) {
      data += size;
    } else if (id === 0) {
      let length;
      let p;
      [length, p] = leb(bytes, at);
      const name = Buffer.from(bytes.subarray(p, p + length)).toString('utf8');
      p += length;
      if (name === 'name') {
        while (p < end) {
          const sub = bytes[p++];
          let subSize;
          [subSize, p] = leb(bytes, p);
          if (sub === 1) {
            let count;
            let q;
            [count, q] = leb(bytes, p);
            for (let index = 0; index < count; index += 1) {
              let func;
              let nameLength;
              [func, q] = leb(bytes, q);
              [nameLength, q] = leb(bytes, q);
              names.set(func, Buffer.from(bytes.subarray(q, q + nameLength)).toString('utf8'));
              q += nameLength;
            }
          }
          p += subSize;
        }
      }
    }
    at = end;
  }
  const crateParts = new Map(PARTS.flatMap(([part, crates]) => crates.map((crate) => [crate, part])));
  const grouped = new Map([...PARTS.map(([part]) => [part, []]), ['other', []]]);
  bodies.forEach((body, index) => {
    const name = names.get(index + imported) ?? '';
    grouped.get(crateParts.get(crateOf(name)) ?? 'other').push(body);
  });
  const parts = [...grouped].filter(([, list]) => list.length > 0).map(([part, list]) => {
    const joined = Buffer.concat(list);
    return { part, raw: joined.length, gzip: zlib.gzipSync(joined, { level: 9 }).length };
  });
  return { total: bytes.length, named: names.size, data, parts };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = wasmParts(fs.readFileSync(process.argv[2]));
  console.log(JSON.stringify(result, null, 2));
}
