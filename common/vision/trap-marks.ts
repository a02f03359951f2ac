/**
 * The sticky-trap counter's vocabulary (issue 17): size classes, the marks it draws over a trap's
 * photo, counts from marks and the Sticky Trap form's fields they fill. Small and free of the counter
 * itself, so a screen that shows or edits marks imports this without the image analysis (which runs
 * in the scan worker: sticky-trap.ts).
 */

/** The counter's method name and version, kept with every count it makes: a count can be traced to the rules that made it. */
export const STICKY_TRAP_METHOD = 'sticky-trap-counter';
/** Changes whenever the counter's rules change. */
export const STICKY_TRAP_VERSION = '1.0.0';

export const SIZE_CLASSES = ['thrips', 'whitefly_aphid', 'gnat_fly'] as const;
/** Insect size classes: thrips-sized (about 1–2 mm long), whitefly/aphid-sized (2–3 mm), gnat/fly-sized (3 mm and over). */
export type SizeClass = (typeof SIZE_CLASSES)[number];

/** One insect marked on a trap's photo; the grower adds and removes marks by tapping. */
export interface StickyTrapMark {
  /** The counter's marks are `m1`, `m2`, …; a screen names the marks a grower adds as it likes. */
  id: string;
  /** Centre, as fractions of the photo's width (x) and height (y). */
  x: number;
  y: number;
  /** Radius of the circle to draw, as a fraction of the photo's width. */
  radius: number;
  sizeClass: SizeClass;
}

/** Counts per size class of a set of marks: the analysis's own, or the grower's after adding and removing marks. */
export function countsOfMarks(marks: ReadonlyArray<Pick<StickyTrapMark, 'sizeClass'>>): Record<SizeClass, number> {
  const counts: Record<SizeClass, number> = { thrips: 0, whitefly_aphid: 0, gnat_fly: 0 };
  for (const mark of marks) counts[mark.sizeClass] += 1;
  return counts;
}

/**
 * The built-in Sticky Trap form's count field each size class fills (server/domains/forms/queries.ts,
 * DEFAULT_FORM_TEMPLATES). Size cannot tell a winged aphid from a whitefly, nor a leafminer fly from a
 * fungus gnat: the whitefly/aphid class fills 'Whitefly' (the common catch of that size on yellow
 * cards) and the gnat/fly class 'Fungus gnats'. 'Aphids (winged)' and 'Leafminers' are left for the
 * grower, who moves counts across after looking at the card, rather than the counter guessing a split
 * it cannot see.
 */
export const STICKY_TRAP_FORM_FIELDS: Readonly<Record<SizeClass, string>> = {
  thrips: 'Thrips',
  whitefly_aphid: 'Whitefly',
  gnat_fly: 'Fungus gnats',
};
