/** Domain functions of grids and grid boxes (spec part 1 §3, §5, §7, §8). */
import { createGridBody, updateCullingBody } from '../../common/schemas/grids';
import { newTempId } from '../../sync/record';
import type { Effect, IdSource, TempId } from '../../sync/types';
import { type ApiContext, check, multipart, now, record } from './context';

/**
 * Create_grid: the grid and its nx × ny boxes appear at once under temporary ids; the server's answer
 * gives each box's id by its position.
 */
export async function createGrid(context: ApiContext, input: { companyId: number; roomId: number | TempId; name: string; nx: number; ny: number }) {
  const values = check(createGridBody, { ncompany_id: input.companyId, nroom_id: input.roomId, ngrid_name: input.name, nx: input.nx, ny: input.ny });
  const gridId = newTempId();
  const at = now();
  const creates: IdSource[] = [{ tempId: gridId, collection: 'grids', path: ['GridID'] }];
  const effects: Effect[] = [
    {
      op: 'upsert',
      collection: 'grids',
      id: gridId,
      data: { Name: values.ngrid_name, CompanyID: values.ncompany_id, RoomID: values.nroom_id, CreatedDateTime: at, UpdatedDateTime: at, Description: null, ImageName: null, Scanned: false, ScannedDateTime: null, LastScannedBy: null, nx: values.nx, ny: values.ny },
    },
  ];
  const boxIds: TempId[] = [];
  for (let y = 1; y <= values.ny; y += 1) {
    for (let x = 1; x <= values.nx; x += 1) {
      const boxId = newTempId();
      boxIds.push(boxId);
      creates.push({ tempId: boxId, collection: 'grid_boxes', path: ['grid', 'boxes'], match: { X: x, Y: y }, field: 'id' });
      effects.push({
        op: 'upsert',
        collection: 'grid_boxes',
        id: boxId,
        data: { GridID: gridId, CompanyID: values.ncompany_id, X: x, Y: y, Color: null, Status: null, Content: null, ImageName: null, CustomName: null, culled: false, CulledBy: null, CulledDateTime: null, BatchIDs: [], sub_gridboxes: [] },
      });
    }
  }
  await record(context, {
    method: 'POST',
    path: '/Create_grid',
    body: multipart({ nx: values.nx, ny: values.ny, ngrid_name: values.ngrid_name, ncompany_id: values.ncompany_id, nroom_id: values.nroom_id }),
    creates,
    effects,
    label: `Create grid ${values.ngrid_name} (${values.nx} × ${values.ny})`,
  });
  return { GridID: gridId, boxIds };
}

/** update_culling_status: culled or not, by the signed-in user. */
export async function updateCullingStatus(context: ApiContext, input: { gridBoxId: number | TempId; userId: number; culled: boolean }) {
  const values = check(updateCullingBody, { GridBoxID: input.gridBoxId, user_id: input.userId, culled: input.culled ? 1 : 0 });
  const culled = values.culled === 1;
  await record(context, {
    method: 'POST',
    path: '/update_culling_status',
    body: multipart({ GridBoxID: values.GridBoxID, user_id: values.user_id, culled: values.culled }),
    effects: [{ op: 'patch', collection: 'grid_boxes', id: String(values.GridBoxID), data: { culled, CulledBy: culled ? values.user_id : null, CulledDateTime: culled ? now() : null } }],
    label: culled ? 'Cull plant' : 'Un-cull plant',
  });
}
