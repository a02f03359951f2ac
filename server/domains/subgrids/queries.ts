/** Sub-gridboxes (plant positions inside a grid box) and plant moves (spec part 2 §3). */
import type { Selectable } from 'kysely';
import type { PlantMovesTable, SubGridbox } from '../../db/schema';

/** Spec part 2 §3: when the custom name is blank the display name is 'Sub-{SubX}-{SubY}'. */
export const subGridboxDisplayName = (sub: Pick<SubGridbox, 'custom_name' | 'subx' | 'suby'>) =>
  sub.custom_name?.trim() ? sub.custom_name : `Sub-${sub.subx}-${sub.suby}`;

export const subGridboxJson = (sub: SubGridbox) => ({
  Sub_gridboxID: sub.id,
  ParentGridboxID: sub.parent_gridbox_id,
  CompanyID: sub.company_id,
  CustomName: subGridboxDisplayName(sub),
  SubX: sub.subx,
  SubY: sub.suby,
  PlantID: sub.plant_id,
  Color: sub.color,
  Status: sub.status,
  Content: sub.content,
  ImageName: sub.image_name,
  IsDeleted: sub.deleted_at !== null,
  CreatedDateTime: sub.created_at,
  UpdatedDateTime: sub.updated_at,
});

export const plantMoveJson = (move: Selectable<PlantMovesTable>) => ({
  movement_id: move.id,
  company_id: move.company_id,
  plant_uid: move.plant_uid,
  sub_gridbox_id: move.sub_gridbox_id,
  from_parent_gridbox_id: move.from_parent_gridbox_id,
  to_parent_gridbox_id: move.to_parent_gridbox_id,
  from_position: move.from_subx === null ? null : { subx: move.from_subx, suby: move.from_suby },
  to_position: { subx: move.to_subx, suby: move.to_suby },
  movement_reason: move.movement_reason,
  notes: move.notes,
  user_id: move.user_id,
  moved_at: move.created_at,
});
