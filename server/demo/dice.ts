/**
 * The demo's dice and calendar. The dice are seeded (mulberry32), so every first start makes the same
 * demo; the calendar tells the story in days before today on the server's clock and in its time zone
 * (the machine `npm start` runs on is, for a first look, the grower's own), so only the dates move.
 */

export interface Dice {
  /** A number in [0, 1). */
  next(): number;
  chance(probability: number): boolean;
  /** A whole number from `min` to `max`, both included. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** One of the items, each as likely as its weight. */
  weighted<T>(items: ReadonlyArray<readonly [T, number]>): T;
  /** A count of events with the given mean (Poisson: what a sticky card catches in a week). */
  count(mean: number): number;
  /** `size` of the items, none twice, in the order drawn. */
  sample<T>(items: readonly T[], size: number): T[];
}

/** Dice from a seed: mulberry32, tiny and good enough to scatter pests over benches. */
export function dice(seed: number): Dice {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const self: Dice = {
    next,
    chance: (probability) => next() < probability,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)] as (typeof items)[number],
    weighted(items) {
      const total = items.reduce((sum, [, weight]) => sum + weight, 0);
      let roll = next() * total;
      for (const [item, weight] of items) {
        roll -= weight;
        if (roll < 0) return item;
      }
      return items[items.length - 1]![0];
    },
    count(mean) {
      // Knuth's method: the means here are a few dozen at most.
      const limit = Math.exp(-mean);
      let product = next();
      let events = 0;
      while (product > limit) {
        events += 1;
        product *= next();
      }
      return events;
    },
    sample(items, size) {
      const pool = [...items];
      const drawn: Array<(typeof items)[number]> = [];
      while (drawn.length < size && pool.length > 0) drawn.push(pool.splice(Math.floor(next() * pool.length), 1)[0]!);
      return drawn;
    },
  };
  return self;
}

export interface Calendar {
  /** The moment `daysAgo` days before today at hour:minute, local time (seconds for acts in a row). */
  at(daysAgo: number, hour: number, minute?: number, second?: number): Date;
  /** That day as yyyy-mm-dd (a batch's start and end dates), local. */
  day(daysAgo: number): string;
}

export function calendar(now: Date): Calendar {
  const year = now.getFullYear();
  const month = now.getMonth();
  const date = now.getDate();
  // Date's own arithmetic: a day across a daylight-saving change is still one calendar day.
  const at = (daysAgo: number, hour: number, minute = 0, second = 0) => new Date(year, month, date - daysAgo, hour, minute, second);
  const pad = (value: number) => String(value).padStart(2, '0');
  return {
    at,
    day(daysAgo) {
      const day = at(daysAgo, 12);
      return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
    },
  };
}
