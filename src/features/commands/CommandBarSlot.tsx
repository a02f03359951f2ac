/**
 * Where a screen shows the command bar (the dashboard, a room). The bar's code (its reading, running
 * and listening) is a chunk of its own, asked for once the screen has painted and the tablet is idle:
 * the dashboard's and the room's first paint stay as they were (a room's cold start is a measured
 * figure, issue 13). The slot keeps the bar's place meanwhile (commands.css).
 */
import { Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChunkFallback, lazyChunk } from '../../app/lazy-chunk';
import type { CommandBarProps } from './CommandBar';
import './commands.css';
import { commandsTexts } from './texts';

const commandBar = lazyChunk(async () => (await import('./CommandBar')).CommandBar);

export function CommandBarSlot(props: CommandBarProps) {
  const { t } = useTranslation(commandsTexts);
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    const idle = requestIdleCallback(() => setPainted(true), { timeout: 1500 });
    return () => cancelIdleCallback(idle);
  }, []);
  // A command changes data: an outside consultant reads only (server/http/guards.ts), so has no bar.
  if (props.user.role === 'Consultant') return null;
  return (
    <div className="command-bar-slot">
      {painted && (
        <Suspense fallback={<ChunkFallback>{t('bar.loading')}</ChunkFallback>}>
          <commandBar.Component {...props} />
        </Suspense>
      )}
    </div>
  );
}
