// A kind without its own drawing: its state as a readable tree, every field named.

import { h, words } from "../dom.js";

function node(value, path) {
  if (value === null) return h("span", { class: "json-null", "data-path": path }, "hidden or none");
  if (Array.isArray(value)) {
    if (!value.length) return h("span", { class: "json-empty", "data-path": path }, "none");
    return h("ol", { class: "json-list", start: 0, "data-path": path },
      value.map((item, index) => h("li", {}, node(item, `${path}[${index}]`))));
  }
  if (typeof value === "object") {
    return h("dl", { class: "json-object", "data-path": path },
      Object.entries(value).map(([key, item]) => [
        h("dt", {}, words(key.replaceAll("_", " "))),
        h("dd", {}, node(item, path ? `${path}.${key}` : key)),
      ]));
  }
  return h("span", { class: "json-value", "data-path": path }, String(value));
}

export function draw(view) {
  return h("div", { class: "generic", "data-drawing": "generic" },
    h("p", { class: "note" }, "This kind has no drawing of its own yet: its state, field by field."),
    node(view, ""));
}

export const sentences = {};
