import type { ColorSymptom } from '../../../common/plant-problems';

/** A problem's colour symptoms, each with its swatch and name (the name says it without colour). */
export function ColorSwatches({ slugs, colors }: { slugs: readonly string[]; colors: ReadonlyMap<string, ColorSymptom> }) {
  return (
    <ul className="swatches" aria-label="Colour symptoms">
      {slugs.map((slug) => {
        const color = colors.get(slug);
        return color ? (
          <li key={slug}>
            <span className="swatch" style={{ background: color.swatch }} aria-hidden="true" />
            {color.name}
          </li>
        ) : null;
      })}
    </ul>
  );
}
