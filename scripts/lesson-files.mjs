#!/usr/bin/env node
// Trunk's post-build hook (Trunk.toml): copies the lesson files build.rs wrote for this build
// (each lesson as its own JSON, lesson-ID-HASH.json, in the app's OUT_DIR/lessons/) into the
// staging folder Trunk is about to make dist/, as lessons/. The app embeds only the course's
// outline and fetches a lesson's file when a page needs it (src/course.rs).
//
// The build's OUT_DIR is the app's newest build-script output for Trunk's profile: cargo names
// it with a hash of the build's settings, so older ones may lie beside it. Every file the
// chosen course.rs names must be there, or the hook fails.
// Usage (Trunk sets these): TRUNK_STAGING_DIR, TRUNK_PROFILE, TRUNK_SOURCE_DIR; CARGO_TARGET_DIR
// when the build set one.
import fs from 'node:fs';
import path from 'node:path';

/** The newest `out/` folder of the app's build script under `target` for `profile`, or null. */
export function newestOut(target, profile) {
  const builds = path.join(target, 'wasm32-unknown-unknown', profile, 'build');
  if (!fs.existsSync(builds)) return null;
  return fs
    .readdirSync(builds)
    .filter((name) => name.startsWith('idempotency-lab-'))
    .map((name) => path.join(builds, name, 'out'))
    .filter((out) => fs.existsSync(path.join(out, 'course.rs')))
    .map((out) => ({ out, time: fs.statSync(path.join(out, 'course.rs')).mtimeMs }))
    .sort((a, b) => b.time - a.time)[0]?.out ?? null;
}

/** The lesson files a course.rs names, in its order. */
export function namedFiles(courseRs) {
  return [...courseRs.matchAll(/\bfile: "(lesson-[a-z0-9-]+-[0-9a-f]{16}\.json)"/g)].map(([, file]) => file);
}

function main() {
  const staging = process.env.TRUNK_STAGING_DIR;
  if (!staging) throw new Error('lesson-files.mjs is a Trunk hook: TRUNK_STAGING_DIR is not set');
  const source = process.env.TRUNK_SOURCE_DIR ?? process.cwd();
  const target = path.resolve(source, process.env.CARGO_TARGET_DIR ?? 'target');
  const profile = process.env.TRUNK_PROFILE === 'release' ? 'release' : 'debug';
  const out = newestOut(target, profile);
  if (!out) throw new Error(`no build of the app under ${target} (${profile}): cargo must have built it first`);
  const files = namedFiles(fs.readFileSync(path.join(out, 'course.rs'), 'utf8'));
  if (files.length === 0) throw new Error(`${out}/course.rs names no lesson file`);
  const into = path.join(staging, 'lessons');
  fs.mkdirSync(into, { recursive: true });
  for (const file of files) {
    const from = path.join(out, 'lessons', file);
    if (!fs.existsSync(from)) throw new Error(`${from} is missing: build.rs writes every file course.rs names`);
    fs.copyFileSync(from, path.join(into, file));
  }
  console.log(`lesson-files: ${files.length} lesson files into lessons/ (from ${path.relative(source, out)})`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
