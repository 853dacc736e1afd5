// Tests of the structure check (scripts/structure.mjs) on small crates written to a temporary
// folder: each way one file can import another is found, a cycle fails with its files and lines,
// and what is not an import (a re-export followed to its source, a test module's `use super::*`,
// a path in a comment or a string, another crate) makes none.
// Run: node --test scripts/structure.test.mjs
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'node:test';

import { blank, check, cycles, readCrate } from './structure.mjs';

/** A crate in a fresh folder, from { 'relative/path.rs': source }; its root is src/lib.rs. */
function crate(files) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'structure-'));
  for (const [name, source] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, 'src', name)), { recursive: true });
    fs.writeFileSync(path.join(root, 'src', name), source);
  }
  return { root, crate: { dir: 'src', root: 'lib.rs' } };
}

function found(files) {
  const { root, crate: spec } = crate(files);
  return cycles(readCrate(root, spec));
}

test('a use of each other is a cycle, named with its files and lines', () => {
  const { root, crate: spec } = crate({
    'lib.rs': 'mod a;\nmod b;\n',
    'a.rs': '//! A.\n\nuse crate::b::B;\npub struct A;\n',
    'b.rs': 'use crate::a::A;\npub struct B;\n',
  });
  const { lines, failed } = check(root, [spec]);
  assert.equal(failed, true);
  const text = lines.join('\n');
  assert.match(text, /error: src: 1 import cycle/);
  assert.match(text, /src\/a\.rs:3 \(use crate::b::B\)/);
  assert.match(text, /src\/b\.rs:1 \(use crate::a::A\)/);
});

test('paths written in code, super, grouped uses and nested modules all count', () => {
  const ring = found({
    'lib.rs': 'mod a;\nmod pages;\n',
    'a.rs': 'pub fn f() { crate::pages::home::g(); }\n',
    'pages/mod.rs': 'pub mod home;\npub mod other;\n',
    'pages/home.rs': 'use super::{other::{self, H}};\npub fn g() {}\n',
    'pages/other.rs': 'pub struct H;\nfn x() { let _ = crate::a::f; }\n',
  });
  assert.equal(ring.length, 1);
  assert.deepEqual(ring[0].members, ['src/a.rs', 'src/pages/home.rs', 'src/pages/other.rs']);
  assert.equal(ring[0].cycle.length, 3);
});

test('a child module named without crate:: counts', () => {
  const ring = found({
    'lib.rs': 'mod store;\n',
    'store.rs': 'mod state;\npub struct Saved;\nfn f() { state::load(); }\n',
    'store/state.rs': 'use super::Saved;\npub fn load() {}\n',
  });
  assert.equal(ring.length, 1);
  assert.deepEqual(ring[0].members, ['src/store.rs', 'src/store/state.rs']);
});

test('a re-export is followed to its source, so a facade makes no cycle', () => {
  const ring = found({
    'lib.rs': 'mod player;\nmod pages;\n',
    'player/mod.rs': 'mod lab;\nmod state;\npub use lab::Lab;\npub use state::*;\n',
    'player/lab.rs': 'use crate::player::State;\npub struct Lab;\n',
    'player/state.rs': 'pub struct State;\n',
    'pages.rs': 'use crate::player::{Lab, State};\n',
  });
  assert.deepEqual(ring, []);
});

test('an item written in a facade that re-exports its user is a cycle', () => {
  const ring = found({
    'lib.rs': 'mod player;\n',
    'player/mod.rs': 'mod lab;\npub use lab::Lab;\npub fn use_player() {}\n',
    'player/lab.rs': 'use crate::player::use_player;\npub struct Lab;\n',
  });
  assert.equal(ring.length, 1);
});

test('a test module, comments, strings and other crates make no import', () => {
  const ring = found({
    'lib.rs': 'mod a;\nmod b;\n',
    'a.rs': [
      '// use crate::b::B;',
      '/* crate::b::B /* nested */ crate::b::B */',
      'pub fn f() -> &\'static str { "crate::b::B" }',
      'pub fn c() -> char { \'"\' }',
      'fn r() -> &\'static str { r#"crate::b::B"# }',
      'use lab_engine::Engine;',
      '#[cfg(test)]',
      'mod tests {',
      '    use super::*;',
      '}',
    ].join('\n'),
    'b.rs': 'use crate::a::f;\npub struct B;\n',
  });
  assert.deepEqual(ring, []);
});

test('blank keeps lines and lifetimes, drops comments and strings', () => {
  const text = blank("fn f<'a>(x: &'a str) -> char { // c\n  let s = \"a\\\"b\"; '\\n' }\n");
  assert.equal(text.split('\n').length, 3);
  assert.match(text, /<'a>/);
  assert.doesNotMatch(text, /"/);
  assert.doesNotMatch(text, /\/\/ c/);
});

test('a declared module with no file is an error', () => {
  const { root, crate: spec } = crate({ 'lib.rs': 'mod gone;\n' });
  const { lines, failed } = check(root, [spec]);
  assert.equal(failed, true);
  assert.match(lines.join('\n'), /mod gone: neither/);
});
