// A past state of a finished game, with everything shown: the API gives every seat's view of
// that moment (`seat_views`); a value hidden (null) from this view is taken from the first seat
// view that shows it. Nothing else is added: the page shows only what the API gave.

function fillHidden(base, other) {
  if (base === null) return other ?? null;
  if (Array.isArray(base)) {
    if (!Array.isArray(other) || other.length !== base.length) return base;
    return base.map((item, index) => fillHidden(item, other[index]));
  }
  if (typeof base === "object" && other !== null && typeof other === "object") {
    return Object.fromEntries(
      Object.entries(base).map(([key, value]) => [key, key === "viewer" ? value : fillHidden(value, other[key])]),
    );
  }
  return base;
}

/** The view with every hidden value the seat views show; the view itself when there are none. */
export function revealed(view, seatViews) {
  return (seatViews ?? []).reduce(fillHidden, view);
}
