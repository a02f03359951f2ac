import { createFileRoute } from '@tanstack/react-router';
import { FillScreen } from '../../../../../features/forms/fill/FillScreen';
import { idParameter } from '../../../../../features/forms/fill/search';

/**
 * Filling a form (spec part 2 §2 `formbuilder/submit/{templateID}/{templateName}`), open to every role.
 * `?boxes=<id>,<id>` fills it for those grid boxes (their client ids), `?room=<id>`
 * for a room (the whole room or boxes picked in it); with both, the boxes are filled and "done" returns
 * to the room.
 */
export const Route = createFileRoute('/dashboard/formbuilder/submit/$templateID/$templateName')({
  validateSearch: (search: Record<string, unknown>): { boxes?: string | number; room?: string | number } => ({ ...idParameter(search, 'boxes'), ...idParameter(search, 'room') }),
  component: FillRoute,
});

function FillRoute() {
  const { templateID, templateName } = Route.useParams();
  const search = Route.useSearch();
  const boxes = search.boxes === undefined ? undefined : String(search.boxes);
  const room = search.room === undefined ? undefined : String(search.room);
  // Keyed by what is filled: another form or other boxes start from a blank form.
  return <FillScreen key={`${templateID}|${boxes ?? ''}|${room ?? ''}`} templateId={templateID} templateName={templateName} boxes={boxes} room={room} />;
}
