// An audit report as the API answers it: the verdict, each check's verdict and detail, and the
// first event found wrong (`onSeq` is called with it to show it on a timeline).

import { h, words } from "./dom.js";

const seqButton = (seq, onSeq) =>
  seq === null || seq === undefined ? "" : h("button", { type: "button", class: "link", "data-bad-seq": seq, onclick: () => onSeq?.(seq) }, `event ${seq}`);

export function reportView(report, { onSeq } = {}) {
  return h("div", { class: "report", "data-verdict": report.verdict },
    h("p", { class: `verdict verdict-${report.verdict}`, "data-overall": report.verdict },
      `Verdict: ${report.verdict}`,
      report.first_bad_seq === null ? null : [", first wrong at ", seqButton(report.first_bad_seq, onSeq)]),
    h("table", { class: "checks" },
      h("caption", { class: "visually-hidden" }, "Each check of the audit"),
      h("thead", {}, h("tr", {}, ["Check", "Verdict", "What was found", "First wrong"].map((name) => h("th", { scope: "col" }, name)))),
      h("tbody", {}, report.checks.map((check) =>
        h("tr", { "data-check": check.id, "data-verdict": check.verdict },
          h("th", { scope: "row" }, h("abbr", { title: check.title }, check.id)),
          h("td", {}, h("span", { class: `verdict verdict-${check.verdict}` }, words(check.verdict))),
          h("td", { class: "detail" }, check.detail),
          h("td", {}, seqButton(check.first_bad_seq, onSeq)))))));
}
