/**
 * Filling a form (spec part 2 §2 `formbuilder/submit/{templateID}/{templateName}`), from the tablet's
 * copy of the template, for:
 * - grid boxes (`?boxes=`): one box is submit_form, several submit_form_boxes (one response each);
 * - a room (`?room=`): the whole room (submit_form_room), or plants picked in it with the multi-select
 *   form (page 1 picks boxes, page 2 is the form; submit_form_multiselect, which records the audit event);
 * - neither: the grower picks a room first.
 * The domain functions check the answers (a required field that shows and is blank: '{Field} is
 * required.'), queue the submission and put the responses in the local store at once, so it works the
 * same offline; the screen then says the form waits on this tablet.
 *
 * Where the spec is silent:
 * - The answers sent are those of the fields that show (blank ones as null); a hidden field's answer
 *   is dropped, since the grower cannot see it. A Coordinates field records the boxes being filled.
 * - After submitting, the screen returns to the room when it came from one (or when the boxes' room is
 *   known), otherwise to where the grower was.
 * - Boxes named by temporary ids that have since synced are followed to their server ids.
 */
import { useNavigate, useRouter } from '@tanstack/react-router';
import { type FormEvent, type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { firstMissingRequired } from '../../../../common/form-rules';
import { formResponseMessages as rm } from '../../../../common/messages/form-responses';
import type { ApiContext } from '../../../api/context';
import type { FormTemplateRecord } from '../../../../common/schemas/forms';
import { type Answer, type Photo, submitForm, submitFormBoxes, submitFormMultiselect, submitFormRoom } from '../../../api/form-responses';
import { byCreation, type RecordId } from '../../../api/records';
import { useAction, useLocalDocument, useLocalQuery, type SignedInUser, useToast } from '../../../app/hooks';
import { useWakeLock } from '../../../app/wake-lock';
import type { LocalDocument } from '../../../db/schemas';
import { translateMessage } from '../../../i18n/messages';
import { useSyncStatus } from '../../../sync/sync-store';
import { type BoxDoc, byName, type CompanyDoc, boxesByGrid, type GridDoc, gridOrderOf, type RoomDoc } from '../../rooms/model';
import { SignedIn } from '../../session/SignedIn';
import { FormError } from '../../shell/forms';
import { Screen } from '../../shell/Screen';
import { FormFields } from '../FormFields';
import { formsTexts } from '../texts';
import { BoxPicker } from './BoxPicker';
import { describeBoxes, placeBoxes, submissionOf } from './model';
import { useMultiSelect } from './multiselect-store';
import '../forms.css';

type TemplateDoc = LocalDocument & FormTemplateRecord;
type Id = RecordId;

/** Where a submission goes. */
type Target = { kind: 'boxes'; gridBoxIds: Id[] } | { kind: 'room'; roomId: Id } | { kind: 'multi'; roomId: Id; gridBoxIds: Id[] };

/** One action for every kind of submission, so the screen has one busy state and one error. */
async function submitFilled(context: ApiContext, input: { target: Target; submittedBy: number; fieldResponses: Answer[]; photos: Photo[] }) {
  const submission = { submittedBy: input.submittedBy, fieldResponses: input.fieldResponses, photos: input.photos };
  const { target } = input;
  if (target.kind === 'room') return submitFormRoom(context, { ...submission, roomId: target.roomId });
  if (target.kind === 'multi') return submitFormMultiselect(context, { ...submission, roomId: target.roomId, gridBoxIds: target.gridBoxIds });
  if (target.gridBoxIds.length === 1) return submitForm(context, { ...submission, gridBoxId: target.gridBoxIds[0]! });
  return submitFormBoxes(context, { ...submission, gridBoxIds: target.gridBoxIds });
}

export function FillScreen(props: { templateId: string; templateName: string; boxes?: string; room?: string }) {
  return <SignedIn title={props.templateName}>{(user) => <Fill user={user} {...props} />}</SignedIn>;
}

function Fill(props: { user: SignedInUser; templateId: string; templateName: string; boxes?: string; room?: string }) {
  const { t } = useTranslation(formsTexts);
  const { user } = props;
  const template = useLocalDocument<TemplateDoc>('form_templates', props.templateId);
  const reset = useMultiSelect((state) => state.reset);
  // A form is filled from the start each time it opens (the store is shared by every fill screen).
  useEffect(() => {
    reset();
    return reset;
  }, [reset]);

  const boxIds = useMemo(() => (props.boxes ?? '').split(',').map((id) => id.trim()).filter(Boolean), [props.boxes]);
  const document = template.document && template.document.CompanyID === user.companyId ? template.document : null;
  const title = document?.TemplateName ?? props.templateName;

  if (template.loading || !document) {
    return <Screen title={title} loading={template.loading} empty={template.loading ? null : t('fill.notOnTablet')} actions={<BackLink />} />;
  }
  if (boxIds.length > 0) return <BoxesFill user={user} template={document} boxIds={boxIds} roomId={props.room} />;
  if (props.room) return <RoomFill user={user} template={document} roomId={props.room} />;
  return <PickRoom user={user} template={document} />;
}

function BackLink() {
  const { t } = useTranslation(formsTexts);
  const router = useRouter();
  return (
    <button type="button" className="button" onClick={() => (router.history.canGoBack() ? router.history.back() : void router.navigate({ to: '/dashboard' }))}>
      {t('fill.back')}
    </button>
  );
}

/** Where to go once the form is submitted: the room when known, otherwise back. */
function useDone(roomId: string | null | undefined) {
  const navigate = useNavigate();
  const router = useRouter();
  return () => {
    if (roomId) void navigate({ to: '/dashboard/rooms/$roomID', params: { roomID: roomId } });
    else if (router.history.canGoBack()) router.history.back();
    else void navigate({ to: '/dashboard' });
  };
}

// ——— Boxes ———

/** The boxes named by id, their grids (with all their boxes, for numbering) and the company's numbering. */
function usePlacedBoxes(boxIds: string[], companyId: number) {
  const boxList = useLocalQuery<BoxDoc>('grid_boxes', { id: { $in: boxIds } }, boxIds.join(','));
  const gridIds = [...new Set(boxList.documents.map((box) => box.gridId))];
  const gridList = useLocalQuery<GridDoc>('grids', { id: { $in: gridIds } }, gridIds.join(','));
  const company = useLocalDocument<CompanyDoc>('company', String(companyId)).document;
  const order = gridOrderOf(company);
  const grids = useMemo(() => [...gridList.documents].sort(byCreation), [gridList.documents]);
  const placed = useMemo(() => placeBoxes(boxList.documents, grids, boxList.documents, order), [boxList.documents, grids, order]);
  return { placed, grids, loading: boxList.loading || gridList.loading };
}

function BoxesFill(props: { user: SignedInUser; template: TemplateDoc; boxIds: string[]; roomId?: string }) {
  const { t } = useTranslation(formsTexts);
  const { template, boxIds } = props;
  const { placed, grids, loading } = usePlacedBoxes(boxIds, props.user.companyId);
  const found = new Set(placed.map((each) => each.box.id));
  const roomId = props.roomId ?? grids[0]?.roomId ?? null;
  const room = useLocalDocument<RoomDoc>('rooms', roomId ?? undefined).document;
  const missing = boxIds.length - found.size;
  const coordinates = placed.length > 0 ? describeBoxes(placed) : null;
  const target: Target = { kind: 'boxes', gridBoxIds: boxIds };

  return (
    <Screen title={template.TemplateName} loading={loading} actions={<BackLink />}>
      <FillTarget>
        <p>
          <Trans
            t={t}
            i18nKey={room?.Name ? 'fill.forBoxesInRoom' : 'fill.forBoxes'}
            values={{ boxes: coordinates ?? t('fill.boxCount', { count: boxIds.length }), room: room?.Name }}
            components={{ strong: <strong /> }}
          />
        </p>
        {missing > 0 && <p className="muted">{t('fill.boxesMissing', { count: missing })}</p>}
      </FillTarget>
      <FillForm user={props.user} template={template} target={target} coordinates={coordinates} doneRoomId={roomId} />
    </Screen>
  );
}

/** The line saying what the form is filled for. */
function FillTarget({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  const { t } = useTranslation(formsTexts);
  return (
    <div className="card fill-target" role="region" aria-label={t('fill.filledFor')}>
      <div>{children}</div>
      {actions && <div className="form-actions">{actions}</div>}
    </div>
  );
}

// ——— A room ———

function RoomFill(props: { user: SignedInUser; template: TemplateDoc; roomId: string }) {
  const { t } = useTranslation(formsTexts);
  const { template, user } = props;
  const room = useLocalDocument<RoomDoc>('rooms', props.roomId);
  // The room's key (its client id), also when the address names it by the spec's integer id.
  const roomId = room.document?.id ?? props.roomId;
  const [mode, setMode] = useState<'room' | 'pick' | null>(null);
  const page = useMultiSelect((state) => state.page);
  const setPage = useMultiSelect((state) => state.setPage);
  const chosenIds = useMultiSelect((state) => state.pageOneData.gridBoxIds);

  const gridList = useLocalQuery<GridDoc>('grids', { roomId }, roomId);
  const grids = useMemo(() => [...gridList.documents].sort(byCreation), [gridList.documents]);
  const gridKey = grids.map((grid) => grid.id).join(',');
  const boxList = useLocalQuery<BoxDoc>('grid_boxes', { gridId: { $in: grids.map((grid) => grid.id) } }, gridKey);
  const company = useLocalDocument<CompanyDoc>('company', String(user.companyId)).document;
  const order = gridOrderOf(company);
  const boxesOfGrid = useMemo(() => boxesByGrid(boxList.documents), [boxList.documents]);
  const placed = useMemo(() => placeBoxes([...boxesOfGrid.values()].flat(), grids, boxList.documents, order), [boxesOfGrid, grids, boxList.documents, order]);
  const chosen = useMemo(() => {
    const ids = new Set(chosenIds);
    return placed.filter((each) => ids.has(each.box.id));
  }, [placed, chosenIds]);

  const roomName = room.document?.Name ?? t('fill.thisRoom');

  if (!room.loading && !room.document) {
    return <Screen title={template.TemplateName} empty={t('fill.roomNotOnTablet')} actions={<BackLink />} />;
  }

  const change = (
    <button type="button" className="button" onClick={() => setMode(null)}>
      {t('fill.change')}
    </button>
  );

  return (
    <Screen title={template.TemplateName} loading={room.loading || gridList.loading} actions={<BackLink />}>
      {mode === null && (
        <div className="card fill-choice" role="group" aria-label={t('fill.fillFor', { form: template.TemplateName })}>
          <p>
            <Trans t={t} i18nKey="fill.fillThisFormFor" values={{ room: roomName }} components={{ strong: <strong /> }} />
          </p>
          <div className="choice-buttons">
            <button type="button" className="button big-choice" onClick={() => setMode('room')}>
              <strong>{t('fill.wholeRoom')}</strong>
              <span>{t('fill.wholeRoomHint')}</span>
            </button>
            <button
              type="button"
              className="button big-choice"
              onClick={() => {
                setMode('pick');
                setPage(1);
              }}
            >
              <strong>{t('fill.pickPlants')}</strong>
              <span>{t('fill.pickPlantsHint')}</span>
            </button>
          </div>
        </div>
      )}
      {mode === 'room' && (
        <>
          <FillTarget actions={change}>
            <p>
              <Trans t={t} i18nKey="fill.forWholeRoom" values={{ room: roomName }} components={{ strong: <strong /> }} />
            </p>
          </FillTarget>
          <FillForm user={user} template={template} target={{ kind: 'room', roomId }} coordinates={null} doneRoomId={roomId} />
        </>
      )}
      {mode === 'pick' && page === 1 && (
        <>
          <FillTarget actions={change}>
            <p>
              <Trans t={t} i18nKey="fill.step1" values={{ room: roomName }} components={{ strong: <strong /> }} />
            </p>
          </FillTarget>
          <BoxPicker grids={grids} placed={placed} boxesByGrid={boxesOfGrid} order={order} onNext={() => setPage(2)} />
        </>
      )}
      {mode === 'pick' && page === 2 && (
        <>
          <FillTarget
            actions={
              <button type="button" className="button" onClick={() => setPage(1)}>
                {t('fill.changePlants')}
              </button>
            }
          >
            <p>
              <Trans t={t} i18nKey="fill.step2" values={{ plants: t('fill.plantCount', { count: chosen.length }), room: roomName }} components={{ strong: <strong /> }} />
            </p>
            <p className="muted">{describeBoxes(chosen)}</p>
          </FillTarget>
          <FillForm
            user={user}
            template={template}
            target={{ kind: 'multi', roomId, gridBoxIds: chosen.map((each) => each.box.id) }}
            coordinates={describeBoxes(chosen)}
            doneRoomId={roomId}
          />
        </>
      )}
    </Screen>
  );
}

// ——— No room or boxes yet ———

function PickRoom(props: { user: SignedInUser; template: TemplateDoc }) {
  const { t } = useTranslation(formsTexts);
  const { template, user } = props;
  const navigate = useNavigate();
  const rooms = useLocalQuery<RoomDoc>('rooms', { CompanyID: user.companyId }, String(user.companyId));
  const sorted = useMemo(() => [...rooms.documents].sort(byName), [rooms.documents]);
  return (
    <Screen title={template.TemplateName} loading={rooms.loading} empty={sorted.length === 0 ? t('fill.noRooms') : null} actions={<BackLink />}>
      <div className="card fill-choice">
        <h2>{t('fill.whichRoom')}</h2>
        <ul className="room-choices" aria-label={t('fill.rooms')}>
          {sorted.map((room) => (
            <li key={room.id}>
              <button
                type="button"
                className="button"
                onClick={() =>
                  void navigate({
                    to: '/dashboard/formbuilder/submit/$templateID/$templateName',
                    params: { templateID: String(template.TemplateID), templateName: template.TemplateName },
                    search: { room: room.id },
                  })
                }
              >
                {room.Name}
              </button>
            </li>
          ))}
        </ul>
      </div>
    </Screen>
  );
}

// ——— The form ———

function FillForm(props: { user: SignedInUser; template: TemplateDoc; target: Target; coordinates: string | null; doneRoomId: string | null }) {
  const { t } = useTranslation(formsTexts);
  const { template, user } = props;
  const answers = useMultiSelect((state) => state.pageTwoData.answers);
  const photos = useMultiSelect((state) => state.pageTwoData.photos);
  const setAnswer = useMultiSelect((state) => state.answer);
  const setPhoto = useMultiSelect((state) => state.photo);
  const online = useSyncStatus((status) => status.online);
  const submit = useAction(submitFilled, undefined, { inlineErrors: true });
  const toast = useToast();
  const done = useDone(props.doneRoomId);
  // A form for several boxes is filled walking the bench: the screen stays on meanwhile (issue 19).
  useWakeLock(props.target.kind !== 'room' && props.target.gridBoxIds.length > 1);
  const [missingFieldId, setMissingFieldId] = useState<string | null>(null);
  // The refusal shows until the grower answers the field it named (or submits again).
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setError(submit.error), [submit.error]);
  const answered = (fieldId: string, given: boolean) => {
    if (fieldId !== missingFieldId || !given) return;
    setMissingFieldId(null);
    setError(null);
  };
  // A second tap while the first submission is being recorded must not record it twice.
  const submitting = useRef(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (submitting.current) return;
    submitting.current = true;
    try {
      const { fieldResponses, photos: photoList } = submissionOf(template, answers, photos, props.coordinates);
      const ok = await submit.run({ target: props.target, submittedBy: user.userId, fieldResponses, photos: photoList });
      if (ok) {
        setMissingFieldId(null);
        toast(online ? rm.submitted : t('fill.submittedOffline', { submitted: translateMessage(rm.submitted), offlineSaved: t('fill.offlineSaved') }), 'success');
        done();
        return;
      }
      // The domain function refused it; when a required field that shows is blank, that was why: mark it.
      const given = new Map(fieldResponses.map((answer) => [String(answer.fieldId), answer.inputData ?? (photos[String(answer.fieldId)] ? 'photo' : null)]));
      const missing = firstMissingRequired(template.fields, template.hide_rules, given);
      setMissingFieldId(missing ? String(missing.FieldID) : null);
    } finally {
      submitting.current = false;
    }
  }

  const empty = props.target.kind !== 'room' && props.target.gridBoxIds.length === 0;
  return (
    <form className="fill-form card" onSubmit={(event) => void onSubmit(event)} noValidate aria-label={template.TemplateName}>
      <FormFields
        template={template}
        answers={answers}
        photos={photos}
        onAnswer={(fieldId, value) => {
          setAnswer(fieldId, value);
          answered(fieldId, value.trim() !== '');
        }}
        onPhoto={(fieldId, photo) => {
          setPhoto(fieldId, photo);
          answered(fieldId, photo !== null);
        }}
        disabled={submit.busy}
        missingFieldId={missingFieldId}
        coordinates={props.coordinates}
      />
      <FormError error={error} />
      {!online && <p className="muted fill-offline">{t('fill.offline')}</p>}
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={submit.busy || empty}>
          {submit.busy ? t('fill.submitting') : t('fill.submit')}
        </button>
      </div>
    </form>
  );
}

