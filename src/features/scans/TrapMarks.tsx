/**
 * A trap's photo with the counter's marks drawn over it (issue 17). Editing, a tap on a mark removes
 * it and a tap elsewhere adds one of the chosen size class, so the grower corrects the count before
 * saving; the buttons beside do the same without aiming (keyboard, screen reader, gloves). Marks are
 * fractions of the photo, so they sit right at any size the photo is shown.
 */
import { type MouseEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ScanMark, type TrapCounts } from '../../../common/schemas/scans';
import { countsOfMarks, SIZE_CLASSES } from '../../../common/vision/trap-marks';
import { scansTexts } from './texts';

type SizeClass = ScanMark['sizeClass'];

/** Colours told apart without relying on hue alone: each class also has its own dash. */
const MARK_STYLE: Record<SizeClass, { stroke: string; dash?: string }> = {
  thrips: { stroke: '#d7263d' },
  whitefly_aphid: { stroke: '#1b4dd8', dash: '6 3' },
  gnat_fly: { stroke: '#6a1b9a', dash: '2 2' },
};

/** A tap this close to a mark's edge (in screen pixels) is on the mark: a fingertip, not a cursor. */
const TOUCH_SLOP_PX = 18;
/** The radius of a mark the grower adds, as a fraction of the photo's width, when the class has no mark to copy. */
const DEFAULT_RADIUS: Record<SizeClass, number> = { thrips: 0.006, whitefly_aphid: 0.009, gnat_fly: 0.013 };

let added = 0;

export function TrapMarks(props: { photoUrl: string; alt: string; marks: ScanMark[]; onChange?: (marks: ScanMark[]) => void }) {
  const { marks, onChange } = props;
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  const [adding, setAdding] = useState<SizeClass>('thrips');
  const counts = countsOfMarks(marks);

  function radiusFor(sizeClass: SizeClass): number {
    const same = marks.filter((mark) => mark.sizeClass === sizeClass).map((mark) => mark.radius).sort((a, b) => a - b);
    return same.length ? same[Math.floor(same.length / 2)]! : DEFAULT_RADIUS[sizeClass];
  }

  function addAt(x: number, y: number, sizeClass: SizeClass) {
    added += 1;
    onChange?.([...marks, { id: `grower-${Date.now()}-${added}`, x, y, radius: radiusFor(sizeClass), sizeClass }]);
  }

  function tap(event: MouseEvent<SVGSVGElement>) {
    if (!onChange) return;
    const box = event.currentTarget.getBoundingClientRect();
    const x = (event.clientX - box.left) / box.width;
    const y = (event.clientY - box.top) / box.height;
    // The nearest mark under the finger, measured on the screen.
    let hit: ScanMark | null = null;
    let best = Infinity;
    for (const mark of marks) {
      const distance = Math.hypot((mark.x - x) * box.width, (mark.y - y) * box.height) - mark.radius * box.width;
      if (distance < TOUCH_SLOP_PX && distance < best) {
        best = distance;
        hit = mark;
      }
    }
    if (hit) onChange(marks.filter((mark) => mark !== hit));
    else addAt(x, y, adding);
  }

  function removeLast(sizeClass: SizeClass) {
    const index = marks.map((mark) => mark.sizeClass).lastIndexOf(sizeClass);
    if (index >= 0) onChange?.(marks.filter((_, at) => at !== index));
  }

  return (
    <div className="trap-marks">
      <div className="trap-photo">
        <img src={props.photoUrl} alt={props.alt} onLoad={(event) => setSize({ width: event.currentTarget.naturalWidth, height: event.currentTarget.naturalHeight })} />
        {size && (
          <svg
            viewBox={`0 0 ${size.width} ${size.height}`}
            preserveAspectRatio="none"
            onClick={onChange ? tap : undefined}
            aria-hidden="true"
            data-marks={marks.length}
            className={onChange ? 'editable' : undefined}
          >
            {marks.map((mark) => (
              <circle
                key={mark.id}
                cx={mark.x * size.width}
                cy={mark.y * size.height}
                r={Math.max(mark.radius * size.width, size.width / 250)}
                fill="none"
                stroke={MARK_STYLE[mark.sizeClass].stroke}
                strokeDasharray={MARK_STYLE[mark.sizeClass].dash}
                strokeWidth={3}
                vectorEffect="non-scaling-stroke"
                data-size-class={mark.sizeClass}
              />
            ))}
          </svg>
        )}
      </div>
      <TrapCountsTable counts={counts} editing={onChange ? { adding, setAdding, add: (sizeClass) => addAt(0.5, 0.5, sizeClass), removeLast } : null} />
    </div>
  );
}

/** The counts by size class; editing, the class a tap adds, and a mark added or removed per class by button. */
function TrapCountsTable(props: {
  counts: TrapCounts;
  editing: { adding: SizeClass; setAdding: (sizeClass: SizeClass) => void; add: (sizeClass: SizeClass) => void; removeLast: (sizeClass: SizeClass) => void } | null;
}) {
  const { t } = useTranslation(scansTexts);
  const { counts, editing } = props;
  return (
    <div className="trap-counts">
      {editing && (
        <fieldset className="segmented">
          <legend>{t('trap.tapAdds')}</legend>
          {SIZE_CLASSES.map((sizeClass) => (
            <label key={sizeClass} className={editing.adding === sizeClass ? 'chosen' : undefined}>
              <input type="radio" name="adding" value={sizeClass} checked={editing.adding === sizeClass} onChange={() => editing.setAdding(sizeClass)} />
              <span className="swatch" style={{ borderColor: MARK_STYLE[sizeClass].stroke, borderStyle: MARK_STYLE[sizeClass].dash ? 'dashed' : 'solid' }} aria-hidden="true" />
              {t(`sizeClass.${sizeClass}`)}
            </label>
          ))}
        </fieldset>
      )}
      <table>
        <caption>{t('trap.counted')}</caption>
        <tbody>
          {SIZE_CLASSES.map((sizeClass) => (
            <tr key={sizeClass}>
              <th scope="row">{t(`sizeClass.${sizeClass}`)}</th>
              <td data-count={sizeClass}>{counts[sizeClass]}</td>
              {editing && (
                <td className="count-buttons">
                  <button type="button" className="button" aria-label={t('trap.removeOne', { name: t(`sizeClass.${sizeClass}`).toLowerCase() })} onClick={() => editing.removeLast(sizeClass)} disabled={counts[sizeClass] === 0}>
                    {t('trap.minus')}
                  </button>
                  <button type="button" className="button" aria-label={t('trap.addOne', { name: t(`sizeClass.${sizeClass}`).toLowerCase() })} onClick={() => editing.add(sizeClass)}>
                    {t('trap.plus')}
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
