/**
 * The comments on an observation (spec part 2 §3 "Comment", §4; issue 16), shown with its task: oldest
 * first, each with its author and time. An add appears at once (offline too, "Waiting to sync" until
 * the server has it), an edit changes the text, a delete removes it; only the author edits, the author
 * or an Admin deletes.
 */
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { COMMENT_MAX_CHARS, commentMessages as cm } from '../../../common/messages/tasks';
import { addComment, commentsOf, deleteComment, editComment, type ResponseComment } from '../../api/tasks';
import { type SignedInUser, useAction } from '../../app/hooks';
import { type CompanyDoc, userName, when } from '../rooms/model';
import { ConfirmPanel, Field, FormButtons, FormError } from '../shell/forms';
import { useWaitingCreates } from './hooks';
import { mayDeleteComment, mayEditComment, type TaskResponseDoc } from './model';
import { tasksTexts } from './texts';

export function Comments({ response, user, company }: { response: TaskResponseDoc; user: SignedInUser; company: CompanyDoc | null }) {
  const { t } = useTranslation(tasksTexts);
  const comments = commentsOf(response);
  const waiting = useWaitingCreates(comments.map((comment) => String(comment.CommentID)));
  return (
    <section className="card task-section" aria-labelledby="task-comments-heading">
      <h2 id="task-comments-heading">{t('comments.heading')}</h2>
      {comments.length === 0 ? (
        <p className="muted">{t('comments.none')}</p>
      ) : (
        <ul className="comments" aria-label={t('comments.heading')}>
          {comments.map((comment) => (
            <CommentItem key={String(comment.CommentID)} comment={comment} responseId={response.id} user={user} company={company} waiting={waiting.has(String(comment.CommentID))} />
          ))}
        </ul>
      )}
      <AddComment responseId={response.id} />
    </section>
  );
}

function CommentItem(props: { comment: ResponseComment; responseId: string; user: SignedInUser; company: CompanyDoc | null; waiting: boolean }) {
  const { t } = useTranslation(tasksTexts);
  const { comment, responseId, user } = props;
  const [editing, setEditing] = useState(false);
  const [asking, setAsking] = useState(false);
  const [text, setText] = useState(comment.CommentText);
  const saving = useAction(editComment, cm.commentEdited, { inlineErrors: true });
  const removing = useAction(deleteComment, cm.commentDeleted);
  const author = comment.UserID === user.userId ? t('comments.you') : (userName(props.company, comment.UserID) ?? t('comments.unknownUser'));
  async function save(event: FormEvent) {
    event.preventDefault();
    if (text.trim() === comment.CommentText) return setEditing(false);
    if (await saving.run({ responseId, commentId: comment.CommentID, text })) setEditing(false);
  }
  return (
    <li className="comment" aria-label={t('comments.item', { author, when: when(comment.CreatedAt) })}>
      <p className="comment-head">
        <strong>{author}</strong> <span className="muted">{when(comment.CreatedAt)}</span>
        {comment.EditedAt && <span className="muted"> · {t('comments.edited')}</span>}
        {props.waiting && <span className="chip waiting">{t('waitingToSync')}</span>}
      </p>
      {editing ? (
        <form className="form" onSubmit={(event) => void save(event)}>
          <Field label={t('comments.edit')}>
            <textarea value={text} rows={3} maxLength={COMMENT_MAX_CHARS} onChange={(event) => setText(event.target.value)} />
          </Field>
          <FormError error={saving.error} />
          <FormButtons submitLabel={t('comments.save')} busy={saving.busy} onCancel={() => setEditing(false)} />
        </form>
      ) : (
        <p className="comment-text">{comment.CommentText}</p>
      )}
      {asking && (
        <ConfirmPanel
          question={t('comments.deleteQuestion')}
          confirmLabel={t('comments.delete')}
          busy={removing.busy}
          onKeep={() => setAsking(false)}
          onConfirm={() => void removing.run({ responseId, commentId: comment.CommentID })}
        />
      )}
      {!editing && !asking && (mayEditComment(comment, user) || mayDeleteComment(comment, user)) && (
        <div className="form-actions">
          {mayEditComment(comment, user) && (
            <button
              type="button"
              className="button"
              onClick={() => {
                setText(comment.CommentText);
                setEditing(true);
              }}
            >
              {t('comments.edit')}
            </button>
          )}
          {mayDeleteComment(comment, user) && (
            <button type="button" className="button danger" onClick={() => setAsking(true)}>
              {t('comments.delete')}
            </button>
          )}
        </div>
      )}
    </li>
  );
}

function AddComment({ responseId }: { responseId: string }) {
  const { t } = useTranslation(tasksTexts);
  const [text, setText] = useState('');
  const adding = useAction(addComment, cm.commentAdded, { inlineErrors: true });
  async function add(event: FormEvent) {
    event.preventDefault();
    if (await adding.run({ responseId, text })) setText('');
  }
  return (
    <form className="form comment-add" onSubmit={(event) => void add(event)}>
      <Field label={t('comments.add')}>
        <textarea value={text} rows={3} maxLength={COMMENT_MAX_CHARS} onChange={(event) => setText(event.target.value)} />
      </Field>
      <FormError error={adding.error} />
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={adding.busy}>
          {t('comments.addButton')}
        </button>
      </div>
    </form>
  );
}
