//! The lab's second module, as a Web Worker (Trunk builds it: `data-type="worker"` in
//! index.html, loaded by static/worker.js): reads each posted request (postcard bytes) and
//! posts its replies. A search runs to its end without reading another message: the page
//! cancels one by ending the worker.

#[cfg(target_arch = "wasm32")]
fn main() {
    use js_sys::Uint8Array;
    use wasm_bindgen::prelude::*;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let post = {
        let scope = scope.clone();
        move |reply: &lab_worker::Reply| {
            let bytes = Uint8Array::from(lab_worker::encode(reply).as_slice());
            // Posting to the page fails only if the page is gone.
            let _ = scope.post_message(&bytes);
        }
    };
    let onmessage = {
        let post = post.clone();
        Closure::<dyn Fn(MessageEvent)>::new(move |event: MessageEvent| {
            let bytes = Uint8Array::new(&event.data()).to_vec();
            match lab_worker::decode::<lab_worker::Request>(&bytes) {
                Ok(request) => {
                    lab_worker::answer(request, lab_worker::clock::now_milliseconds, &post)
                }
                Err(error) => post(&lab_worker::Reply::Refused(format!(
                    "The lab's worker could not read a request ({error}): the page and the worker are from different builds; reload the page."
                ))),
            }
        })
    };
    scope.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    onmessage.forget();
    // Messages posted before this point found no listener: the page waits for Ready.
    post(&lab_worker::Reply::Ready);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("lab-worker is the lab's Web Worker: `make build` builds it for the browser");
}
