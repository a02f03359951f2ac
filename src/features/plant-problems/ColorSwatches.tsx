import { useTranslation } from 'react-i18next';
import type { ColorSymptom } from '../../../common/plant-problems';
import { useCatalogueWords } from './catalogue-texts';
import { plantProblemsTexts } from './texts';

/** A problem's colour symptoms, each with its swatch and name (the name says it without colour). */
export function ColorSwatches({ slugs, colors }: { slugs: readonly string[]; colors: ReadonlyMap<string, ColorSymptom> }) {
  const { t } = useTranslation(plantProblemsTexts);
  const words = useCatalogueWords();
  return (
    <ul className="swatches" aria-label={t('colourSymptoms')}>
      {slugs.map((slug) => {
        const color = colors.get(slug);
        return color ? (
          <li key={slug}>
            <span className="swatch" style={{ background: color.swatch }} aria-hidden="true" />
            {words.color(color)}
          </li>
        ) : null;
      })}
    </ul>
  );
}
