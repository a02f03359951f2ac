/**
 * scanHistory/{scanType}/{scanHistoryID} (issue 17): one scan, each box with its photo, the trap's marks
 * or the model's findings, and what was recorded. A scan on the tablet shows offline (its trap marks too
 * when made here); the marks of another tablet's scan, and older scans, are read from the server.
 * Admins delete a scan; the problems it recorded stay.
 */
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { scanMessages } from '../../../common/messages/scans';
import { deleteScan, getScan, type ScanBoxDocument, type ScanDetail, type ScanDocument } from '../../api/scans';
import { type SignedInUser, useAction, useApiContext, useLocalDocument } from '../../app/hooks';
import { messageOf, translateMessage } from '../../i18n/messages';
import { useCatalogue } from '../plant-problems/useCatalogue';
import { useCompanyDoc } from '../plant-moves/places';
import { useStoredImage } from '../rooms/hooks';
import { userName, when } from '../rooms/model';
import { SignedIn } from '../session/SignedIn';
import { ConfirmPanel, FormError } from '../shell/forms';
import { Screen } from '../shell/Screen';
import { Findings } from './Findings';
import { summaryText } from './ScanHistoryScreen';
import { scansTexts, scanTypeName } from './texts';
import { TrapMarks } from './TrapMarks';
import './scans.css';

export function ScanDetailScreen(props: { scanType: string; scanId: string }) {
  const { t } = useTranslation(scansTexts);
  return <SignedIn title={t('detail.title')}>{(user) => <ScanDetail user={user} scanId={props.scanId} />}</SignedIn>;
}

function ScanDetail({ user, scanId }: { user: SignedInUser; scanId: string }) {
  const { t } = useTranslation(scansTexts);
  const local = useLocalDocument<ScanDocument>('operations', scanId);
  const context = useApiContext();
  const [remote, setRemote] = useState<{ scan: ScanDetail | null; error: string | null }>({ scan: null, error: null });
  const company = useCompanyDoc(user.companyId);
  const { catalogue } = useCatalogue();
  const navigate = useNavigate();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const remove = useAction(deleteScan, scanMessages.scanDeleted);

  // The server's copy has every box's marks: read when the tablet's copy lacks them (or the scan).
  const needsServer = !local.loading && (local.document === null || (local.document.scan_type === 'sticky_trap' && local.document.boxes.some((box) => !box.marks && !box.photo_pending)));
  useEffect(() => {
    if (!context || !needsServer) return undefined;
    let alive = true;
    getScan(context, { scanId }).then(
      (scan) => alive && setRemote({ scan, error: null }),
      (error: unknown) => alive && setRemote({ scan: null, error: messageOf(error) }),
    );
    return () => {
      alive = false;
    };
  }, [context, needsServer, scanId]);

  const scan = local.document ?? remote.scan;
  const marksOf = (box: ScanBoxDocument) => box.marks ?? remote.scan?.boxes.find((each) => each.client_id === box.client_id)?.marks ?? null;
  return (
    <Screen
      title={scan ? `${scanTypeName(scan.scan_type)} · ${scan.grid_name ?? scan.room_name ?? ''}` : t('detail.title')}
      loading={local.loading || (!scan && !remote.error)}
      error={!scan ? remote.error : null}
      actions={
        scan && user.isAdmin ? (
          <button type="button" className="button danger" onClick={() => setConfirmDelete(true)}>
            {t('detail.delete')}
          </button>
        ) : undefined
      }
    >
      {scan && (
        <>
          {confirmDelete && (
            <ConfirmPanel
              question={t('detail.deleteQuestion')}
              message={t('detail.deleteMessage')}
              confirmLabel={t('detail.delete')}
              busy={remove.busy}
              onKeep={() => setConfirmDelete(false)}
              onConfirm={() => void remove.run({ companyId: user.companyId, scanId: scan.client_id }).then(async (ok) => {
                  if (ok) await navigate({ to: '/dashboard/scanHistory' });
                })
              }
            />
          )}
          <FormError error={remove.error} />
          <div className="card scan-facts">
            <p>
              {t('detail.madeBy', { when: when(scan.scanned_at), who: scan.user_name ?? userName(company, scan.user_id) ?? t('detail.someone'), room: scan.room_name ?? t('detail.aRoom') })}
              {scan.grid_name ? `, ${scan.grid_name}` : ''}
            </p>
            <p>
              {t('detail.model', { model: scan.model_name ?? scan.model_key ?? t('detail.none') })}
              {scan.model_version ? ` ${t('detail.version', { version: scan.model_version })}` : ''}
            </p>
            <p>{summaryText(scan)}</p>
          </div>
          {scan.boxes.length === 0 ? (
            <p className="empty">{t('detail.noBoxes')}</p>
          ) : (
            <ul className="scan-boxes">
              {scan.boxes.map((box) => (
                <ScanBoxCard key={box.client_id} box={box} marks={marksOf(box)} trap={scan.scan_type === 'sticky_trap'} catalogue={catalogue} />
              ))}
            </ul>
          )}
        </>
      )}
    </Screen>
  );
}

function ScanBoxCard(props: { box: ScanBoxDocument; marks: ScanBoxDocument['marks'] | null; trap: boolean; catalogue: ReturnType<typeof useCatalogue>['catalogue'] }) {
  const { t } = useTranslation(scansTexts);
  const { box } = props;
  const photo = useStoredImage(box.photo_pending || !box.image ? null : box.image);
  const name = box.box_name ?? t('detail.boxAt', { x: box.x, y: box.y });
  return (
    <li className="card scan-box">
      <h2>{name}</h2>
      <p className="muted">{when(box.captured_at)}</p>
      {box.photo_pending ? (
        <p role="status">{t('detail.photoPending')}</p>
      ) : photo.url ? (
        props.trap && props.marks ? (
          <TrapMarks photoUrl={photo.url} alt={t('detail.trapAlt', { name })} marks={props.marks} />
        ) : (
          <img className="scan-photo" src={photo.url} alt={t('detail.photoAlt', { name })} />
        )
      ) : (
        <p className="muted">{photo.loading ? t('detail.loadingPhoto') : photo.error ? translateMessage(photo.error) : t('detail.noPhoto')}</p>
      )}
      {props.trap ? !props.marks && box.counts && <p>{t('detail.counted', { thrips: box.counts.thrips, whitefly: box.counts.whitefly_aphid, gnat: box.counts.gnat_fly })}</p> : <Findings findings={box.findings} catalogue={props.catalogue} />}
    </li>
  );
}
