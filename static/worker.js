// Starts the lab's second module (crate lab-worker) in this Web Worker. If its WebAssembly cannot
// be loaded or started, the page is told in words (a string; every other message is postcard
// bytes), so it can say so instead of waiting.
import init from './lab-worker.js';

init().catch((error) => postMessage(`its WebAssembly could not be started (${error})`));
