// Trunk's initializer for the app's WebAssembly (index.html, data-initializer): the loading line
// shows how much has arrived, and if the wasm cannot be loaded or started (a network error, an
// old browser, a policy that forbids WebAssembly) the page says so in words instead of
// "Loading…" forever. Text only: nothing here is read as HTML.
export default function initializer() {
  const boot = () => {
    let element = document.getElementById('boot');
    if (!element) {
      element = document.createElement('div');
      element.id = 'boot';
      document.body.prepend(element);
    }
    return element;
  };
  return {
    onProgress({ current, total }) {
      const element = document.getElementById('boot');
      // A policy that forbids WebAssembly fails the start before the download ends: the last
      // progress must not write over the failure.
      if (element && total > 0 && !element.classList.contains('boot-failed')) {
        const percent = Math.min(100, Math.round((current / total) * 100));
        element.textContent = `Loading Idempotency Lab… ${percent}%`;
      }
    },
    onFailure(reason) {
      const element = boot();
      element.className = 'boot boot-failed';
      element.setAttribute('role', 'alert');
      element.textContent =
        'Idempotency Lab could not start: this browser could not load its WebAssembly. ' +
        'Reload the page; if it happens again, try a current version of Firefox, Chrome, Safari or Edge. ' +
        `(${reason})`;
    },
  };
}

// The whole app (src/bin/idempotency-lab-whole.rs: every page), for the addresses the first
// module (the course map and the lessons) does not serve: src/handover.rs calls this, fetches the
// script and the WebAssembly while the first module's page still shows, and gets back the function
// that starts it. Beside index.html, so under the public URL's path too.
const WHOLE = 'idempotency-lab-whole';
window.idempotencyLabOpenWhole = async () => {
  const glue = await import(new URL(`${WHOLE}.js`, document.baseURI).href);
  const response = await fetch(new URL(`${WHOLE}_bg.wasm`, document.baseURI));
  if (!response.ok) throw new Error(`the server answered ${response.status} ${response.statusText}`.trim());
  const bytes = await response.arrayBuffer();
  return () => glue.default({ module_or_path: bytes }).catch((reason) => initializer().onFailure(reason));
};
