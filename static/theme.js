// The saved theme before the app loads, so the loading screen does not flash the system theme.
// A classic script in <head> (index.html), so it runs before the first paint; an external file,
// so the Content-Security-Policy needs no 'unsafe-inline'. The app re-applies the theme
// (src/store); anything unreadable is ignored. Keys are namespaced by the public URL's
// directory, none at the root, as in key_prefix (src/store/storage.rs).
try {
  var path = new URL(document.baseURI).pathname;
  var prefix = path.slice(0, path.lastIndexOf('/') + 1);
  if (prefix === '/') prefix = '';
  var saved = JSON.parse(localStorage.getItem(prefix + 'idempotency-lab/settings'));
  if (saved && (saved.theme === 'light' || saved.theme === 'dark')) {
    document.documentElement.setAttribute('data-theme', saved.theme);
  }
} catch (error) {}
