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
