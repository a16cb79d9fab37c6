/**
 * What the fast-path property tests (perf5, perf8) share: a window's head for `summarize`, and JSON that tells
 * -0 from 0 (a fast path must give the slow path's -0 or 0 exactly).
 */

/** A consumption window's head, as the billing reader passes it to `summarize`. */
export const HEAD = {
  projectId: 7,
  productId: 1 as const,
  periodFrom: "2026-08-01T00:00:00.000Z",
  periodTo: "2026-11-24T10:00:00.000Z",
  fromDay: "2026-08-01",
  toDay: "2026-11-24",
};

/** JSON with -0 told apart from 0. */
export const exact = (v: unknown) => JSON.stringify(v, (_k, x) => (Object.is(x, -0) ? "-0" : x));
