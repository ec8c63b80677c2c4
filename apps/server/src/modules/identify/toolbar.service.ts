import { ResultCode, type ToolbarItem } from '@ipp/contracts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/app-error.ts';
import { isExampleCategory, isExampleFor } from '../access/folder-access.ts';
import type { UserRow } from '../users/users.repository.ts';
import * as folders from './folders.repository.ts';

const exampleReadOnly = () => new AppError(ResultCode.FORBIDDEN, 'exampleReadOnly');

/** Each user's toolbar: shortcuts to tree nodes (classes and folders). */
export class ToolbarService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  list(actor: UserRow): Promise<ToolbarItem[]> {
    return folders.listToolbar(this.db.kysely, actor.id);
  }

  /** POST /roi-index/add-tool-bar: a shortcut to a tree node, per user (adding one twice keeps one). */
  async add(actor: UserRow, item: { category_id: number; code: string; title: string }): Promise<ToolbarItem> {
    // Example ROIs support no operations (spec §4), a shortcut to one of their classes included.
    if (isExampleCategory(actor, item.category_id)) throw exampleReadOnly();
    const folder = await folders.findFolderByAnyCode(this.db.kysely, item.code);
    if (folder && isExampleFor(actor, folder)) throw exampleReadOnly();
    // Insert-or-keep in one statement: a select first let two calls at once both insert (the second a 500).
    const k = this.db.kysely;
    await folders.insertToolbarItem(k, actor.id, item, this.clock());
    return folders.findToolbarItem(k, actor.id, item.category_id, item.code);
  }

  async remove(actor: UserRow, id: number): Promise<void> {
    const gone = await folders.deleteToolbarItem(this.db.kysely, actor.id, id);
    if (gone === 0) throw new AppError(ResultCode.BAD_PARAM, 'badParam', { field: 'id', reasonKey: 'reason.invalid' }, 'id');
  }
}
