/**
 * Plant moves (spec part 2 §3, §5, §7, §9: move_plant and get_company_movement_history; the spec has no
 * screen for them): move one plant (a sub-gridbox with its plant id) to a free position of another
 * box, and read the company's movement history with the spec's filters. The move is queued and shows
 * at once, online or offline (the plant leaves its box, takes its new place, and is listed as waiting
 * until the server has it); the history is the server's, read through one query hook with its
 * offline fallback inside (hooks.ts).
 *
 * Where the spec is silent:
 * - The plant is picked room → box → plant (boxes listed only when they hold a plant with a plant id,
 *   since move_plant names the plant by it); the target room is the plant's own unless changed.
 * - Boxes and positions are named as the room screen names them ("Bench A · Box 3" by the company's
 *   grid order, "Sub-2-1"); a plant is shown by its position's name and its plant id.
 * - Only free positions are offered: those free within the rows and columns the target box uses, then
 *   the row below it; the first free one (where the server would put the plant itself) is preselected.
 * - The reason stays filled after a move (growers move several plants for one reason); notes clear.
 * - The history starts unfiltered, newest first; its days are UTC days as the server filters them.
 *   Offline, or when the server gives no answer, it shows this tablet's copy (every move is synced to
 *   the tablet) and says so; moves not yet on the server are listed apart, marked "Waiting to sync".
 * - Filters live in the screen, not the address (the history is a review, not a place to link to).
 */
import { useTranslation } from 'react-i18next';
import { type SignedInUser } from '../../app/hooks';
import { SignedIn } from '../session/SignedIn';
import { Screen } from '../shell/Screen';
import { History } from './History';
import { MoveForm } from './MoveForm';
import { useCompanyDoc, useCompanyRooms } from './places';
import './plant-moves.css';
import { plantMovesTexts } from './texts';

export function PlantMovesScreen() {
  const { t } = useTranslation(plantMovesTexts);
  return <SignedIn title={t('title')}>{(user) => <PlantMoves user={user} />}</SignedIn>;
}

function PlantMoves({ user }: { user: SignedInUser }) {
  const { t } = useTranslation(plantMovesTexts);
  const { rooms, loading } = useCompanyRooms(user.companyId);
  const company = useCompanyDoc(user.companyId);
  return (
    <Screen title={t('title')} loading={loading}>
      {rooms.length === 0 ? (
        <p className="empty">{t('noRooms')}</p>
      ) : (
        <MoveForm user={user} rooms={rooms} company={company} />
      )}
      <History user={user} rooms={rooms} company={company} />
    </Screen>
  );
}
