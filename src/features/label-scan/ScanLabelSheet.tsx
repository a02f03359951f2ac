/**
 * Where the label scanner opens: a panel over the screen with a Close button (Escape closes it too).
 * The scanner and its QR decoder load only when the panel opens (React.lazy), so neither is part of
 * the sign-in page or a screen's first load; the service worker precaches the chunk, so it opens
 * offline too.
 */
import { useNavigate } from '@tanstack/react-router';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { ChunkFallback, lazyChunk } from '../../app/lazy-chunk';
import { Sheet } from '../batches/Sheet';
import type { ScannedBatch } from './label';
import { labelScanTexts } from './texts';

/** The scanner, loaded on first use (app/lazy-chunk.tsx: offline before the app was saved, it waits for the connection). */
const labelScanner = lazyChunk(async () => (await import('./LabelScanner')).default);

/**
 * The scanner in a panel. By default a label's batch opens on its batch-info screen (the address the
 * label itself holds); `onBatch` replaces that (a scan screen may want the batch for something else).
 */
export function ScanLabelSheet(props: { onClose: () => void; onBatch?: (batch: ScannedBatch) => void }) {
  const { t } = useTranslation(labelScanTexts);
  const navigate = useNavigate();
  const openBatch = props.onBatch ?? ((batch: ScannedBatch) => void navigate({ to: '/dashboard/batch-info/$batchId', params: { batchId: batch.address } }));
  return (
    <Sheet title={t('title')} onClose={props.onClose} wide>
      <Suspense
        fallback={<ChunkFallback>{t('starting')}</ChunkFallback>}
      >
        <labelScanner.Component onBatch={openBatch} />
      </Suspense>
    </Sheet>
  );
}
