#!/usr/bin/env node
// The structure check: no import cycle between the files of a crate. It reads each crate's
// module tree from its root file (`mod NAME;`, inline `mod NAME { .. }`), every `use` and every
// path written in code (`crate::a::B`, `super::c`, `child::d`), resolves each to the file that
// defines the item (following `pub use` re-exports to where the item is written), and fails
// naming the shortest cycle it finds, each step with the file and line of the import.
// `make structure` (part of `make test`) runs it; scripts/structure.test.mjs tests it.
// Usage: node scripts/structure.mjs [ROOT]   (default: the repository)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Every crate checked: its source folder and root file. */
export const CRATES = [
  { dir: 'src', root: 'lib.rs' },
  { dir: 'course/src', root: 'lib.rs' },
  { dir: 'lab/src', root: 'main.rs' },
  { dir: 'engine/src', root: 'lib.rs' },
];

/**
 * Rust source with comments, strings and character literals blanked to spaces (line breaks kept,
 * so offsets keep their lines); lifetimes stay.
 */
export function blank(source) {
  const chars = Array.from(source);
  const out = [];
  const keep = (c) => (c === '\n' ? '\n' : ' ');
  let i = 0;
  while (i < chars.length) {
    const c = chars[i];
    const next = chars[i + 1];
    if (c === '/' && next === '/') {
      while (i < chars.length && chars[i] !== '\n') {
        out.push(' ');
        i += 1;
      }
    } else if (c === '/' && next === '*') {
      let depth = 0;
      do {
        if (chars[i] === '/' && chars[i + 1] === '*') {
          depth += 1;
          out.push(' ', ' ');
          i += 2;
        } else if (chars[i] === '*' && chars[i + 1] === '/') {
          depth -= 1;
          out.push(' ', ' ');
          i += 2;
        } else {
          out.push(keep(chars[i]));
          i += 1;
        }
      } while (depth > 0 && i < chars.length);
    } else if ((c === 'r' || (c === 'b' && next === 'r')) && /[#"]/.test(chars[c === 'r' ? i + 1 : i + 2] ?? '') && !/[\w]/.test(chars[i - 1] ?? '')) {
      // A raw string: r"..", r#".."#, br"..".
      let j = c === 'r' ? i + 1 : i + 2;
      let hashes = 0;
      while (chars[j] === '#') {
        hashes += 1;
        j += 1;
      }
      if (chars[j] !== '"') {
        out.push(c);
        i += 1;
        continue;
      }
      const close = '"' + '#'.repeat(hashes);
      j += 1;
      while (j < chars.length && chars.slice(j, j + close.length).join('') !== close) j += 1;
      j = Math.min(chars.length, j + close.length);
      for (; i < j; i += 1) out.push(keep(chars[i]));
    } else if (c === '"') {
      out.push(' ');
      i += 1;
      while (i < chars.length && chars[i] !== '"') {
        if (chars[i] === '\\') {
          out.push(' ');
          i += 1;
        }
        out.push(keep(chars[i] ?? ''));
        i += 1;
      }
      out.push(' ');
      i += 1;
    } else if (c === "'") {
      // A character literal ('a', '\n', '\u{1F600}'), or a lifetime ('a), which stays.
      if (next === '\\') {
        let j = i + 2;
        while (j < chars.length && chars[j] !== "'") j += 1;
        for (; i <= j; i += 1) out.push(' ');
      } else if (chars[i + 2] === "'") {
        out.push(' ', ' ', ' ');
        i += 3;
      } else {
        out.push(c);
        i += 1;
      }
    } else {
      out.push(c);
      i += 1;
    }
  }
  return out.join('');
}

/** Tokens of blanked source: identifiers, `::` and single punctuation, each with its line. */
export function tokens(text) {
  const found = [];
  const pattern = /(r#)?[A-Za-z_][A-Za-z0-9_]*|::|\S/gu;
  let line = 1;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    for (let k = last; k < match.index; k += 1) if (text[k] === '\n') line += 1;
    last = match.index;
    const value = match[0].startsWith('r#') ? match[0].slice(2) : match[0];
    found.push({ value, line });
  }
  return found;
}

const ITEM_KEYWORDS = new Set(['struct', 'enum', 'fn', 'const', 'static', 'type', 'trait', 'union']);
const isIdent = (value) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(value ?? '');

/** The leaves of a use tree starting at `tokens[i]`: each a list of segments (`*` for a glob). */
function useTree(list, i, prefix, leaves) {
  const path = [...prefix];
  while (i < list.length) {
    const token = list[i].value;
    if (token === '{') {
      i += 1;
      while (i < list.length && list[i].value !== '}') {
        i = useTree(list, i, path, leaves);
        if (list[i]?.value === ',') i += 1;
      }
      return i + 1;
    }
    if (token === '*') {
      leaves.push({ path: [...path, '*'] });
      return i + 1;
    }
    if (isIdent(token)) {
      path.push(token);
      i += 1;
      if (list[i]?.value === 'as') {
        leaves.push({ path, alias: list[i + 1].value });
        return i + 2;
      }
      if (list[i]?.value === '::') {
        i += 1;
        continue;
      }
      leaves.push({ path });
      return i;
    }
    return i + 1;
  }
  return i;
}

/**
 * What one file says about modules: the modules it declares (`mod a;`) and holds inline
 * (`mod a { .. }`), the items each defines, each `use` (re-export or not) and each path written
 * in code, all by module path relative to the file's own module.
 */
export function readFile(source) {
  const list = tokens(blank(source));
  const scopes = [{ inner: [], depth: 0 }];
  const file = { declared: [], inline: new Set(), items: new Map(), uses: [], paths: [] };
  const inner = () => scopes[scopes.length - 1].inner;
  const key = (segments) => segments.join('::');
  const itemsOf = (segments) => {
    const name = key(segments);
    if (!file.items.has(name)) file.items.set(name, new Set());
    return file.items.get(name);
  };
  itemsOf([]);
  let depth = 0;
  let pendingMod = null;
  for (let i = 0; i < list.length; i += 1) {
    const token = list[i].value;
    const before = list[i - 1]?.value;
    if (token === '{') {
      depth += 1;
      if (pendingMod !== null) {
        scopes.push({ inner: [...inner(), pendingMod], depth });
        file.inline.add(key(inner()));
        itemsOf(inner());
        pendingMod = null;
      }
    } else if (token === '}') {
      if (scopes.length > 1 && scopes[scopes.length - 1].depth === depth) scopes.pop();
      depth -= 1;
    } else if (token === 'mod' && isIdent(list[i + 1]?.value) && before !== '::') {
      const name = list[i + 1].value;
      if (list[i + 2]?.value === ';') file.declared.push({ inner: inner(), name });
      else if (list[i + 2]?.value === '{') pendingMod = name;
      itemsOf(inner()).add(name);
      i += 1;
    } else if (token === 'use' && before !== '::') {
      // `pub use`, `pub(crate) use`: a re-export.
      const exported = before === 'pub' || (before === ')' && list.slice(Math.max(0, i - 5), i).some((t) => t.value === 'pub'));
      const leaves = [];
      let j = useTree(list, i + 1, [], leaves);
      while (j < list.length && list[j].value !== ';') j += 1;
      for (const leaf of leaves) file.uses.push({ inner: inner(), ...leaf, exported, line: list[i].line });
      i = j;
    } else if (ITEM_KEYWORDS.has(token) && isIdent(list[i + 1]?.value) && before !== '::' && list[i + 1].value !== '_') {
      itemsOf(inner()).add(list[i + 1].value);
    } else if (token === 'macro_rules' && list[i + 1]?.value === '!' && isIdent(list[i + 2]?.value)) {
      itemsOf(inner()).add(list[i + 2].value);
    } else if (isIdent(token) && list[i + 1]?.value === '::' && before !== '::' && before !== '$' && isIdent(list[i + 2]?.value)) {
      const segments = [token];
      let j = i + 1;
      while (list[j]?.value === '::' && isIdent(list[j + 1]?.value)) {
        segments.push(list[j + 1].value);
        j += 2;
      }
      file.paths.push({ inner: inner(), path: segments, line: list[i].line });
      i = j - 1;
    }
  }
  return file;
}

/** The module tree of a crate and every file's reading. */
export function readCrate(root, crate) {
  const modules = new Map(); // module path ("" for the root, "a::b") -> { file, children: Map }
  const files = new Map(); // file (relative to the repository) -> reading
  const missing = [];
  const load = (segments, relative, childDir) => {
    const reading = readFile(fs.readFileSync(path.join(root, relative), 'utf8'));
    files.set(relative, reading);
    const add = (names) => {
      const name = names.join('::');
      if (!modules.has(name)) modules.set(name, { file: relative, children: new Map(), inner: null });
      return modules.get(name);
    };
    add(segments).inner = [];
    for (const inlineKey of reading.inline) {
      const inner = inlineKey.split('::');
      const module = add([...segments, ...inner]);
      module.inner = inner;
      add([...segments, ...inner.slice(0, -1)]).children.set(inner[inner.length - 1], [...segments, ...inner].join('::'));
    }
    for (const { inner, name } of reading.declared) {
      const parent = [...segments, ...inner];
      const dir = path.join(childDir, ...inner);
      const candidates = [path.join(dir, `${name}.rs`), path.join(dir, name, 'mod.rs')];
      const found = candidates.find((candidate) => fs.existsSync(path.join(root, candidate)));
      if (!found) {
        missing.push(`${relative}: mod ${name}: neither ${candidates.join(' nor ')}`);
        continue;
      }
      add(parent).children.set(name, [...parent, name].join('::'));
      const grandchildren = path.basename(found) === 'mod.rs' ? path.dirname(found) : path.join(dir, name);
      load([...parent, name], found, grandchildren);
    }
  };
  load([], path.join(crate.dir, crate.root), crate.dir);
  return { modules, files, missing };
}

/** The file that defines what `segments` names, seen from module `from`; null for another crate. */
function resolve(tree, from, segments, seen = new Set()) {
  const { modules, files } = tree;
  let at;
  let rest = [...segments];
  const parent = (name) => name.split('::').slice(0, -1).join('::');
  if (rest[0] === 'crate') {
    at = '';
    rest.shift();
  } else if (rest[0] === 'self' || rest[0] === 'super') {
    at = from;
    while (rest[0] === 'self' || rest[0] === 'super') {
      if (rest.shift() === 'super') at = parent(at);
    }
  } else if (modules.get(from)?.children.has(rest[0])) {
    at = from;
  } else {
    return null;
  }
  while (rest.length > 0) {
    const module = modules.get(at);
    const segment = rest[0];
    if (segment === '*' || segment === 'self') return module.file;
    if (module.children.has(segment)) {
      at = module.children.get(segment);
      rest.shift();
      continue;
    }
    return item(tree, at, segment, seen);
  }
  return modules.get(at).file;
}

/** Where module `at`'s item `name` is written: the module itself, or a re-export's source. */
function item(tree, at, name, seen) {
  const module = tree.modules.get(at);
  const reading = tree.files.get(module.file);
  const inner = module.inner.join('::');
  if (seen.has(`${at}#${name}`)) return module.file;
  seen.add(`${at}#${name}`);
  if (reading.items.get(inner)?.has(name)) return module.file;
  const exports = reading.uses.filter((use) => use.exported && use.inner.join('::') === inner);
  for (const use of exports) {
    const bound = use.alias ?? use.path[use.path.length - 1];
    if (bound === name) return resolve(tree, at, use.path, seen) ?? module.file;
  }
  for (const use of exports.filter((use) => use.path[use.path.length - 1] === '*')) {
    const target = resolve(tree, at, [...use.path.slice(0, -1), name], seen);
    if (target && target !== module.file) return target;
  }
  return module.file;
}

/** Every import between two files of the crate: { from, to, line, what }. */
export function edges(tree) {
  const found = [];
  for (const [name, module] of tree.modules) {
    const reading = tree.files.get(module.file);
    const inner = module.inner.join('::');
    const own = (entry) => entry.inner.join('::') === inner;
    const take = (entry, what) => {
      const to = resolve(tree, name, entry.path);
      if (to && to !== module.file) found.push({ from: module.file, to, line: entry.line, what });
    };
    for (const use of reading.uses.filter(own)) take(use, `use ${use.path.join('::')}`);
    for (const entry of reading.paths.filter(own)) take(entry, entry.path.join('::'));
  }
  return found;
}

/** The shortest cycle through a strongly connected set of files, as a list of edges. */
function shortestCycle(members, byFrom) {
  let best = null;
  for (const start of members) {
    const previous = new Map([[start, null]]);
    const queue = [start];
    let closing = null;
    while (queue.length > 0 && !closing) {
      const at = queue.shift();
      for (const edge of byFrom.get(at) ?? []) {
        if (!members.has(edge.to)) continue;
        if (edge.to === start) {
          closing = edge;
          break;
        }
        if (!previous.has(edge.to)) {
          previous.set(edge.to, edge);
          queue.push(edge.to);
        }
      }
    }
    if (!closing) continue;
    const cycle = [closing];
    for (let edge = previous.get(closing.from); edge; edge = previous.get(edge.from)) cycle.unshift(edge);
    if (!best || cycle.length < best.length) best = cycle;
  }
  return best;
}

/** The import cycles of a crate: for each strongly connected set of files, its shortest cycle. */
export function cycles(tree) {
  const all = edges(tree);
  const byFrom = new Map();
  for (const edge of all) {
    if (!byFrom.has(edge.from)) byFrom.set(edge.from, []);
    byFrom.get(edge.from).push(edge);
  }
  // Tarjan's strongly connected components.
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  let counter = 0;
  const visit = (file) => {
    index.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const { to } of byFrom.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file), low.get(to)));
      } else if (onStack.has(to)) {
        low.set(file, Math.min(low.get(file), index.get(to)));
      }
    }
    if (low.get(file) === index.get(file)) {
      const component = new Set();
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.add(member);
      } while (member !== file);
      if (component.size > 1) components.push(component);
    }
  };
  for (const file of [...tree.files.keys()].sort()) if (!index.has(file)) visit(file);
  return components.map((members) => ({ members: [...members].sort(), cycle: shortestCycle(members, byFrom) }));
}

/** The cycle in words: `a.rs:3 (use crate::b::X) -> b.rs:9 (crate::a::y) -> a.rs`. */
export function describe(cycle) {
  const steps = cycle.map((edge) => `${edge.from}:${edge.line} (${edge.what})`);
  return `${steps.join('\n    -> ')}\n    -> ${cycle[0].from}`;
}

/** Checks every crate under `root`: the lines to print and whether the check fails. */
export function check(root, crates = CRATES) {
  const lines = [];
  let failed = false;
  for (const crate of crates) {
    const tree = readCrate(root, crate);
    for (const problem of tree.missing) {
      lines.push(`error: ${problem}`);
      failed = true;
    }
    const found = cycles(tree);
    if (found.length === 0) {
      lines.push(`ok: ${crate.dir}: ${tree.files.size} files, no import cycle`);
      continue;
    }
    lines.push(`error: ${crate.dir}: ${found.length} import cycle(s) among ${tree.files.size} files`);
    for (const { members, cycle } of found) {
      lines.push(`  ${members.length} files import each other: ${members.join(', ')}`);
      lines.push(`  shortest cycle:\n    ${describe(cycle)}`);
    }
    failed = true;
  }
  return { lines, failed };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
  const { lines, failed } = check(root);
  for (const line of lines) console.log(line);
  if (failed) {
    console.log('structure: an import cycle; move what both files need below both, or merge them');
    process.exit(1);
  }
}
