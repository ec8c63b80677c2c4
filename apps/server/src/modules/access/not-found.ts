import { ResultCode } from '@ipp/contracts';
import { AppError } from '../../http/app-error.ts';

/*
 * The answers for an object the caller may not see. Another team's station, image or folder answers exactly like an
 * unknown one (1002 with that object's "not found" message, on the field that named it), so ids of other teams reveal
 * nothing; every module throws these rather than writing its own. A team the superadmin names that does not exist
 * answers teamNotFound.
 */

export const stationNotFound = (field = 'ipp_id') => new AppError(ResultCode.BAD_PARAM, 'ippNotFound', {}, field);
export const roiNotFound = (field = 'roi_id') => new AppError(ResultCode.BAD_PARAM, 'roiNotFound', {}, field);
export const teamNotFound = (field = 'group_id') => new AppError(ResultCode.BAD_PARAM, 'teamNotFound', {}, field);
export const folderNotFound = (field = 'roi_index_id') => new AppError(ResultCode.BAD_PARAM, 'folderNotFound', {}, field);
