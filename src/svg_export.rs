//! The sequence diagram as a standalone SVG file: a copy of the diagram on screen, with the
//! styles the page's stylesheet gives each shape written on it as SVG presentation attributes
//! (`fill`, `stroke`, …; not `style` attributes, which the page's Content-Security-Policy
//! refuses even on a detached copy), so the file looks the same
//! anywhere, in the theme it was exported in), a background, a `<title>`, and the SVG namespace.

use wasm_bindgen::JsCast;
use web_sys::Element;

const SVG_NAMESPACE: &str = "http://www.w3.org/2000/svg";

/// The presentation properties the diagram's stylesheet sets.
const PROPERTIES: [&str; 9] = [
    "fill",
    "stroke",
    "stroke-width",
    "stroke-dasharray",
    "font-family",
    "font-size",
    "font-weight",
    "opacity",
    "text-anchor",
];

/// The file's text for the `<svg>` element `svg`, titled `title`, on a `background` colour.
pub fn standalone_svg(svg: &Element, title: &str) -> Result<String, String> {
    let window = gloo::utils::window();
    let document = gloo::utils::document();
    let copy: Element = svg
        .clone_node_with_deep(true)
        .ok()
        .and_then(|node| node.dyn_into().ok())
        .ok_or("the browser would not copy the diagram")?;
    let originals = svg
        .query_selector_all("*")
        .map_err(|_| "the diagram's shapes could not be listed")?;
    let copies = copy
        .query_selector_all("*")
        .map_err(|_| "the diagram's shapes could not be listed")?;
    for index in 0..originals.length() {
        let (Some(original), Some(copied)) = (originals.item(index), copies.item(index)) else {
            continue;
        };
        let (Ok(original), Ok(copied)) =
            (original.dyn_into::<Element>(), copied.dyn_into::<Element>())
        else {
            continue;
        };
        for (property, value) in computed(&window, &original) {
            copied
                .set_attribute(property, &value)
                .map_err(|_| "a shape's style could not be written")?;
        }
        // Classes and ids meant the page's stylesheet and scripts; the file carries its styles.
        let _ = copied.remove_attribute("class");
        let _ = copied.remove_attribute("id");
    }
    let view_box = svg.get_attribute("viewBox").unwrap_or_default();
    let size: Vec<&str> = view_box.split_whitespace().collect();
    if let [_, _, width, height] = size[..] {
        let _ = copy.set_attribute("width", width);
        let _ = copy.set_attribute("height", height);
    }
    let _ = copy.remove_attribute("style");
    for (property, value) in computed(&window, svg) {
        let _ = copy.set_attribute(property, &value);
    }
    let _ = copy.set_attribute("xmlns", SVG_NAMESPACE);
    let _ = copy.remove_attribute("role");
    let _ = copy.remove_attribute("aria-label");
    let heading = document
        .create_element_ns(Some(SVG_NAMESPACE), "title")
        .map_err(|_| "the browser would not create the title")?;
    heading.set_text_content(Some(title));
    let background = document
        .create_element_ns(Some(SVG_NAMESPACE), "rect")
        .map_err(|_| "the browser would not create the background")?;
    for (name, value) in [
        ("width", "100%"),
        ("height", "100%"),
        ("fill", &background_colour(&window, svg)),
    ] {
        let _ = background.set_attribute(name, value);
    }
    let first = copy.first_child();
    copy.insert_before(&background, first.as_ref())
        .and_then(|_| copy.insert_before(&heading, Some(&background)))
        .map_err(|_| "the title could not be added")?;
    let serializer =
        web_sys::XmlSerializer::new().map_err(|_| "the browser has no XML serializer")?;
    let text = serializer
        .serialize_to_string(&copy)
        .map_err(|_| "the diagram could not be written as XML")?;
    Ok(format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{text}\n"
    ))
}

/// The element's presentation properties, as the page's stylesheet computes them.
fn computed(window: &web_sys::Window, element: &Element) -> Vec<(&'static str, String)> {
    let Some(style) = window.get_computed_style(element).ok().flatten() else {
        return Vec::new();
    };
    PROPERTIES
        .iter()
        .filter_map(|&property| {
            let value = style.get_property_value(property).ok()?;
            (!value.is_empty()).then_some((property, value))
        })
        .collect()
}

/// The first opaque background behind the diagram, or white.
fn background_colour(window: &web_sys::Window, element: &Element) -> String {
    let mut current = Some(element.clone());
    while let Some(element) = current {
        let colour = window
            .get_computed_style(&element)
            .ok()
            .flatten()
            .and_then(|style| style.get_property_value("background-color").ok())
            .unwrap_or_default();
        if !colour.is_empty() && colour != "rgba(0, 0, 0, 0)" && colour != "transparent" {
            return colour;
        }
        current = element.parent_element();
    }
    "#ffffff".to_string()
}
