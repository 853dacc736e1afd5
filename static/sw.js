// The lab's service worker: a classroom whose network drops keeps the lab across a reload. It
// caches every file of the build when it installs (the list and the build's version are written
// in by scripts/postbuild.mjs), answers from that cache first, and answers any address with
// index.html (the app routes by the hash). A new build installs beside the one running and
// waits: the page says "A new version of the lab is ready" (src/offline.rs, never mid-lesson)
// and swaps only when the learner clicks Reload, or when every tab of the lab is closed.
// Unbuilt (`trunk serve`), FILES is null and it caches nothing.
const FILES = null;
const VERSION = 'unbuilt';

// The public URL's directory: two builds on one origin keep apart caches.
const SCOPE = new URL('./', self.location).pathname;
const PREFIX = `idempotency-lab ${SCOPE} `;
const CACHE = PREFIX + VERSION;

self.addEventListener('install', (event) => {
  if (FILES === null) return;
  // Past the browser's HTTP cache, so the files are this build's.
  const requests = ['./', ...FILES].map((file) => new Request(file, { cache: 'reload' }));
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(requests)));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// The page's Reload button.
self.addEventListener('message', (event) => {
  if (event.data === 'take-over') self.skipWaiting();
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (FILES === null || request.method !== 'GET' || url.origin !== self.location.origin || !url.pathname.startsWith(SCOPE)) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const cached = await cache.match(request.mode === 'navigate' ? './' : request, { ignoreSearch: true });
    return cached ?? fetch(request);
  })());
});
