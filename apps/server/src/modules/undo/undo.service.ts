import { ResultCode, UNDO_WINDOW_MS, type BulkActionBody, type LastAction, type UndoResult } from '@ipp/contracts';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import * as folders from '../identify/folders.repository.ts';
import { findRoisCore, type RoiCore } from '../rois/rois.repository.ts';
import type { RoisService } from '../rois/rois.service.ts';
import type { UserRow } from '../users/users.repository.ts';
import { ownsTeamObject } from '../access/access.ts';
import * as repo from './undo.repository.ts';

type Trx = Kysely<Database>;

/** A bulk action being journalled: its id and what its ROIs were before it. */
export interface JournalEntry {
  id: number;
  userId: number;
  roiIds: number[];
  before: Map<number, repo.RoiState>;
  members: repo.Memberships;
  maxFolderId: number;
}

const nothingToUndo = () => new AppError(ResultCode.BAD_PARAM, 'nothingToUndo', {}, 'bulk_id');

/**
 * Undo of a user's last bulk action (issue 25). The bulk action journals, in its own transaction, each ROI's state
 * before and after and the folder memberships it added or removed; for UNDO_WINDOW_MS the user may undo it: every ROI
 * still as the action left it goes back (its label, favourite, review, recycle state and memberships, with their
 * counts and rollups, through the same RoisService calls), and one changed since is left alone and counted.
 */
export class UndoService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly rois: RoisService,
  ) {}

  /** Before a bulk action, in its transaction: opens the journal entry whose id the action's label events carry. */
  async begin(trx: Trx, actor: UserRow, body: BulkActionBody, category: number, roiIds: number[]): Promise<JournalEntry> {
    const before = await repo.roiStates(trx, roiIds);
    const members = await repo.memberships(trx, roiIds);
    const maxFolderId = await repo.maxFolderId(trx);
    const id = await repo.insertAction(trx, {
      user_id: actor.id,
      code: body.type,
      category_id: category,
      created_at: this.clock(),
    });
    return { id, userId: actor.id, roiIds, before, members, maxFolderId };
  }

  /** After it: keeps what changed as the user's last action (answers its id), or, when nothing did, forgets it (null). */
  async finish(trx: Trx, entry: JournalEntry, affected: number): Promise<number | null> {
    const after = await repo.roiStates(trx, entry.roiIds);
    const members = await repo.memberships(trx, entry.roiIds);
    const rois: repo.ChangedRoi[] = [];
    for (const [roiId, before] of entry.before) {
      const now = after.get(roiId);
      if (now && !repo.sameState(before, now)) rois.push({ roi_id: roiId, before, after: now });
    }
    const changed: repo.ChangedMember[] = [];
    for (const [key, addedAt] of members) {
      if (!entry.members.has(key)) changed.push({ ...splitKey(key), added: 1, added_at: addedAt });
    }
    for (const [key, addedAt] of entry.members) {
      if (!members.has(key)) changed.push({ ...splitKey(key), added: 0, added_at: addedAt });
    }
    if (rois.length === 0 && changed.length === 0) {
      await repo.deleteAction(trx, entry.id);
      return null;
    }
    const created = [...new Set(changed.filter((m) => m.added === 1 && m.folder_id > entry.maxFolderId).map((m) => m.folder_id))];
    await repo.completeAction(trx, { id: entry.id, user_id: entry.userId, affected, created_folders: created }, rois, changed);
    return entry.id;
  }

  /** GET /roi/last-action: the caller's last bulk action while it can still be undone; null otherwise. */
  async last(actor: UserRow): Promise<LastAction | null> {
    const action = await repo.lastAction(this.db.kysely, actor.id);
    if (!action || action.undone_at !== null) return null;
    const expiresAt = action.created_at + UNDO_WINDOW_MS;
    if (expiresAt <= this.clock()) return null;
    return {
      bulk_id: action.id,
      code: action.code,
      category_id: action.category_id,
      affected: action.affected,
      created_at: action.created_at,
      expires_at: expiresAt,
    };
  }

  /** POST /roi/undo: undoes the caller's last bulk action, which must be `bulkId` and still in its window. */
  async undo(actor: UserRow, bulkId: number): Promise<UndoResult> {
    return this.db.kysely.transaction().execute(async (trx) => {
      const action = await repo.lastAction(trx, actor.id);
      const now = this.clock();
      if (!action || action.id !== bulkId || action.undone_at !== null || action.created_at + UNDO_WINDOW_MS <= now) {
        throw nothingToUndo();
      }
      const journal = await repo.changedRois(trx, action.id);
      const members = await repo.changedMembers(trx, action.id);
      const roiIds = [...new Set([...journal.map((r) => r.roi_id), ...members.map((m) => m.roi_id)])];
      // The ROIs first, locked in id order (PostgreSQL) like every writer of ROIs, and only then the action's row: a
      // bulk action takes its ROIs and then the user's journal rows, so the other order could deadlock with it.
      const cores = new Map((await findRoisCore(trx, roiIds, this.db.dialect === 'postgres')).map((r) => [r.id, r]));
      // Two undos at once (two tabs): one claims it, the other is told there is nothing left to undo.
      if (!(await repo.markUndone(trx, action.id, now))) throw nothingToUndo();
      const visible = (id: number) => {
        const core = cores.get(id);
        return core !== undefined && ownsTeamObject(actor, core.group_id);
      };
      const current = await repo.roiStates(trx, roiIds);
      const currentMembers = await repo.memberships(trx, roiIds);
      const folderIds = await repo.existingFolders(trx, [...new Set(members.map((m) => m.folder_id))]);
      // Left alone: an ROI purged, of another team, or changed since, and one whose membership changed since or
      // whose folder is gone.
      const blocked = new Set<number>(roiIds.filter((id) => !visible(id)));
      for (const r of journal) {
        const now = current.get(r.roi_id);
        if (!now || !repo.sameState(now, r.after)) blocked.add(r.roi_id);
      }
      for (const m of members) {
        const still = currentMembers.has(repo.memberKey(m.folder_id, m.roi_id)) === (m.added === 1);
        if (!still || !folderIds.has(m.folder_id)) blocked.add(m.roi_id);
      }
      const rois = journal.filter((r) => !blocked.has(r.roi_id));
      await this.restoreRows(trx, actor, action.id, rois, cores);
      const states = await repo.roiStates(trx, roiIds);
      const live = new Set([...states].filter(([, s]) => s.deleted_at === null).map(([id]) => id));
      const back = members.filter((m) => !blocked.has(m.roi_id));
      const added = back.filter((m) => m.added === 1);
      for (const [folderId, ids] of groupBy(added, (m) => m.folder_id)) {
        await folders.removeMembers(
          trx,
          [folderId],
          ids.map((m) => m.roi_id),
          live,
        );
      }
      await repo.reinsertMembers(
        trx,
        back.filter((m) => m.added === 0),
        live,
      );
      await folders.deleteFolders(trx, await repo.emptyFolders(trx, action.created_folders));
      const restored = new Set([...rois.map((r) => r.roi_id), ...back.map((m) => m.roi_id)]);
      return { bulk_id: action.id, restored: restored.size, skipped: blocked.size };
    });
  }

  /** Each ROI's row back to its state before the action: recycle state, then label, then the fields that count nothing. */
  private async restoreRows(
    trx: Trx,
    actor: UserRow,
    bulkId: number,
    rois: readonly repo.ChangedRoi[],
    cores: Map<number, RoiCore>,
  ) {
    if (rois.length === 0) return;
    const coreOf = (r: repo.ChangedRoi) => cores.get(r.roi_id)!;
    const toRestore = rois.filter((r) => r.before.deleted_at === null && r.after.deleted_at !== null).map(coreOf);
    const toRecycle = rois.filter((r) => r.before.deleted_at !== null && r.after.deleted_at === null).map(coreOf);
    await this.rois.restore(trx, toRestore);
    await this.rois.recycle(trx, toRecycle, actor.id);
    const relabelled = rois.filter(
      (r) =>
        r.before.class_id !== r.after.class_id ||
        r.before.hi !== r.after.hi ||
        r.before.roi_labelindex !== r.after.roi_labelindex,
    );
    if (relabelled.length > 0) {
      const before = new Map(relabelled.map((r) => [r.roi_id, r.before]));
      const fresh = await findRoisCore(trx, [...before.keys()]);
      await this.rois.relabel(
        trx,
        fresh,
        (r) => {
          const b = before.get(r.id)!;
          return { classId: b.class_id, labelIndex: b.roi_labelindex, hi: b.hi };
        },
        { userId: actor.id, action: 'undo', bulkId },
      );
    }
    // Only the fields the action changed (a recycle: its time and author), grouped by the values they go back to:
    // one statement for the whole selection in the usual case, not one per ROI.
    for (const [, group] of groupBy(rois, (r) => JSON.stringify(changedPlainFields(r)))) {
      const values = changedPlainFields(group[0]!);
      if (Object.keys(values).length > 0) {
        await repo.setPlainFields(
          trx,
          group.map((r) => r.roi_id),
          values,
        );
      }
    }
  }
}

const PLAIN_FIELDS = [
  'labelled_by',
  'labelled_at',
  'favorite_at',
  'review_status',
  'reviewed_at',
  'deleted_at',
  'deleted_by',
] as const;

/** The fields that count nothing which the action changed, with the values they had before it. */
function changedPlainFields(r: repo.ChangedRoi): Partial<Pick<repo.RoiState, (typeof PLAIN_FIELDS)[number]>> {
  const out: Partial<Record<(typeof PLAIN_FIELDS)[number], number | null>> = {};
  for (const field of PLAIN_FIELDS) if (r.before[field] !== r.after[field]) out[field] = r.before[field];
  return out as Partial<Pick<repo.RoiState, (typeof PLAIN_FIELDS)[number]>>;
}

function splitKey(key: string) {
  const [folder, roi] = key.split(':');
  return { folder_id: Number(folder), roi_id: Number(roi) };
}

function groupBy<T, K>(items: readonly T[], keyOf: (item: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const list = out.get(key);
    if (list) list.push(item);
    else out.set(key, [item]);
  }
  return out;
}
