import { z } from 'zod';
import { GRID_SIZE_MAX, gridMessages as m } from '../messages/grids';
import { flag, formBody, requiredId, requiredText, optionalClientId } from './fields';

const gridSize = z.preprocess(
  (value) => (value === '' || value === null ? undefined : value),
  z.coerce.number({ error: m.sizeInvalid }).int({ error: m.sizeInvalid }).min(1, { error: m.sizeInvalid }).max(GRID_SIZE_MAX, { error: m.sizeInvalid }),
);

export const createGridBody = formBody({
  ncompany_id: requiredId(m.gridCompanyRequired),
  nroom_id: requiredId(m.gridRoomRequired),
  ngrid_name: requiredText(m.gridNameRequired, 200),
  nx: gridSize,
  ny: gridSize,
  client_id: optionalClientId(),
});

export const deleteGridQuery = z.object({ grid_id: requiredId(m.gridIdRequired) });

export const updateCullingBody = formBody({
  GridBoxID: requiredId(m.cullingRequired),
  user_id: requiredId(m.cullingRequired),
  culled: flag(m.culledInvalid),
});

export const gridIdQuery = z.object({ GridID: requiredId(m.gridIdMissing) });

export const updateGridBoxNameBody = formBody({
  GridBoxID: requiredId(m.gridBoxIdRequired),
  custom_name: z.preprocess((value) => (value === null || value === undefined ? '' : value), z.string().trim().max(200)),
});

export const plantHistoryQuery = z.object({ company_id: requiredId(m.companyIdRequired), Grid_boxID: requiredId(m.historyRequired) });
