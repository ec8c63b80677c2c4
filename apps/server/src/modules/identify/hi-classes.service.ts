import { CATEGORY, ResultCode, type Created } from '@ipp/contracts';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, forbidden } from '../../http/app-error.ts';
import { isPlainUser, teamActedOn } from '../access/access.ts';
import { assertMayManageClass, assertTeamClassRoom } from '../classes/classes.ts';
import * as classesRepo from '../classes/classes.repository.ts';
import * as roisRepo from '../rois/rois.repository.ts';
import { findTeamById, lockTeam } from '../teams/teams.repository.ts';
import type { UserRow } from '../users/users.repository.ts';
import { codes } from './scope.ts';
import { UNCLASSIFIED } from './tree.ts';
import { teamNotFound } from '../access/not-found.ts';

type Trx = Kysely<Database>;

const classNotFound = () => new AppError(ResultCode.BAD_PARAM, 'classNotFound', {}, 'class_id');

/**
 * HI classes as things (the class nodes under site images, -100): create, rename, delete, highlight and each team's
 * visibility. Who owns and may change a class is modules/classes; this holds the identify workspace's calls on them.
 * `title` is already checked against the naming rule (checkTitle).
 */
export class HiClassesService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /**
   * A new HI class: the superadmin's is shared, an administrator's belongs to their team, which may own at most
   * CLASS_LIMIT_PER_TEAM (the numbers 001–999 are shared by all teams; docs/decisions.md "Class ownership").
   */
  async create(actor: UserRow, title: string): Promise<Created> {
    if (isPlainUser(actor) || actor.is_demo === 1) throw forbidden();
    const owner = actor.role === 'superadmin' ? null : actor.group_id;
    if (actor.role !== 'superadmin' && owner === null) throw forbidden();
    const labelIndex = labelIndexOf(title);
    return this.db.kysely.transaction().execute(async (trx) => {
      if (owner !== null) {
        await lockTeam(trx, owner, this.db.dialect);
        await assertTeamClassRoom(trx, owner);
      }
      await assertClassFree(trx, title, labelIndex);
      const id = await classesRepo.insertClass(trx, {
        name: title,
        label_index: labelIndex,
        group_id: owner,
        created_at: this.clock(),
      });
      // An HI class is global: no team, no station; it is made under site images (-100).
      return {
        roi_index_id: null,
        class_id: id,
        title,
        code: codes.groupClass('hi', id),
        roi_index_code: null,
        category_id: CATEGORY.SITE,
        group_id: null,
        ipp_id: null,
      };
    });
  }

  /** A non-system class renamed by its owner; the label index (the leading three digits) stays. */
  async rename(actor: UserRow, classId: number, title: string): Promise<void> {
    const cls = await this.editableClass(actor, classId);
    await this.db.kysely.transaction().execute(async (trx) => {
      const labelIndex = labelIndexOf(title);
      if (labelIndex !== cls.label_index)
        throw new AppError(ResultCode.BAD_PARAM, 'labelChanged', { label: cls.label_index ?? '' }, 'title');
      await assertNotUsedByOthers(trx, actor, cls);
      await assertClassFree(trx, title, null, cls.id);
      await classesRepo.renameClass(trx, cls.id, title);
    });
  }

  /** A non-system class no ROI carries, deleted by its owner. */
  async remove(actor: UserRow, classId: number): Promise<void> {
    const cls = await this.editableClass(actor, classId);
    await this.db.kysely.transaction().execute(async (trx) => {
      await assertNotUsedByOthers(trx, actor, cls);
      const used = await roisRepo.countRoisOfClass(trx, cls.id);
      if (used > 0) throw new AppError(ResultCode.BAD_PARAM, 'classInUse', { title: cls.name, count: used }, 'class_id');
      await classesRepo.deleteClass(trx, cls.id);
    });
  }

  /** A class's highlight (its owner's) and its visibility to a team's plain users (that team's administrators). */
  async changeStatus(actor: UserRow, classId: number, values: { attention?: number; status?: number }, groupId?: number) {
    if (isPlainUser(actor) || actor.is_demo === 1) throw forbidden();
    const k = this.db.kysely;
    const cls = await findClass(k, classId);
    // Highlighting is the owner's (it shows in every team's lists); visibility is each team's own.
    if (values.attention !== undefined) assertMayManageClass(actor, cls);
    const team = values.status === undefined ? undefined : await this.visibilityTeam(actor, groupId);
    await k.transaction().execute(async (trx) => {
      if (values.attention !== undefined) await classesRepo.setClassAttention(trx, cls.id, values.attention);
      if (team !== undefined) await classesRepo.setHidden(trx, cls.id, team, values.status === 0);
    });
  }

  /** The team whose plain users a class is shown to or hidden from: one's own; the superadmin names one. */
  private async visibilityTeam(actor: UserRow, requested?: number): Promise<number> {
    const team = teamActedOn(actor, requested);
    if (actor.role === 'superadmin' && !(await findTeamById(this.db.kysely, team))) throw teamNotFound();
    return team;
  }

  private async editableClass(actor: UserRow, id: number) {
    if (isPlainUser(actor) || actor.is_demo === 1) throw forbidden();
    const cls = await findClass(this.db.kysely, id);
    if (cls.system === 1) throw new AppError(ResultCode.FORBIDDEN, 'systemClass');
    assertMayManageClass(actor, cls);
    return cls;
  }
}

/** The three leading digits of a class name are its label index (spec §5). */
const labelIndexOf = (title: string) => Number(title.slice(0, 3));

async function findClass(db: Kysely<Database>, id: number) {
  const cls = await classesRepo.findClassById(db, id);
  if (!cls) throw classNotFound();
  return cls;
}

/** A team's class that other teams' images carry is theirs too: only the superadmin renames or deletes it. */
async function assertNotUsedByOthers(trx: Trx, actor: UserRow, cls: { id: number; group_id: number | null }) {
  if (actor.role === 'superadmin' || cls.group_id === null) return;
  if (await classesRepo.usedByOtherTeams(trx, cls.id, cls.group_id))
    throw new AppError(ResultCode.FORBIDDEN, 'classUsedByOthers', {}, 'class_id');
}

/** Class names and label indexes are unique across the system (classes are global, docs/decisions.md). */
async function assertClassFree(trx: Trx, title: string, labelIndex: number | null, exceptId?: number) {
  const sameName = await classesRepo.findClassIdByName(trx, title);
  if (sameName && sameName.id !== exceptId) throw new AppError(ResultCode.BAD_PARAM, 'titleTaken', { title }, 'title');
  if (labelIndex === null) return;
  if (labelIndex === 0) throw new AppError(ResultCode.BAD_PARAM, 'labelTaken', { label: '000', title: UNCLASSIFIED }, 'title');
  const sameLabel = await classesRepo.findClassByLabel(trx, labelIndex);
  if (sameLabel && sameLabel.id !== exceptId) {
    throw new AppError(
      ResultCode.BAD_PARAM,
      'labelTaken',
      { label: String(labelIndex).padStart(3, '0'), title: sameLabel.name },
      'title',
    );
  }
}
