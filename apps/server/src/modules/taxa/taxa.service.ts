import { ResultCode, type SaveClassTaxonBody, type Taxon } from '@ipp/contracts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { ClassTaxaTable } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import { viewerTeam } from '../classes/classes.ts';
import { findClassById } from '../classes/classes.repository.ts';
import type { UserRow } from '../users/users.repository.ts';
import { starterTaxonOf } from './starter-taxa.ts';
import * as repo from './taxa.repository.ts';

/** A class's taxon: the team's own mapping (an empty name: none), else the starter list's entry, else none. */
export function effectiveTaxon(className: string, own: ClassTaxaTable | undefined): Taxon | null {
  if (own)
    return own.taxon_name === '' ? null : { name: own.taxon_name, aphia_id: own.aphia_id, name_zh: own.name_zh, source: 'team' };
  const starter = starterTaxonOf(className);
  return starter ? { ...starter, source: 'starter' } : null;
}

/** The taxa of classes as a team maps them (docs/ecotaxa.md "Taxonomy"); without a team, the starter list's. */
export async function taxaOf(db: Db, team: number | undefined | null, classes: readonly { id: number; name: string }[]) {
  const own = team ? await repo.teamTaxa(db.kysely, team) : new Map<number, ClassTaxaTable>();
  return new Map(classes.map((c) => [c.id, effectiveTaxon(c.name, own.get(c.id))]));
}

/** Each team's mapping of classes to taxa: read with the class list, changed by the team's administrators. */
export class TaxaService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /**
   * Maps one class for a team: the caller's own (administrators), the named one (superadmin). `reset` removes the
   * team's mapping, so the starter list applies again.
   */
  async save(actor: UserRow, body: Required<Omit<SaveClassTaxonBody, 'group_id'>> & { group_id?: number }) {
    const team = await viewerTeam(this.db.kysely, actor, body.group_id);
    if (team === undefined)
      throw new AppError(ResultCode.BAD_PARAM, 'badParam', { field: 'group_id', reasonKey: 'reason.required' }, 'group_id');
    const cls = await findClassById(this.db.kysely, body.class_id);
    if (!cls) throw new AppError(ResultCode.BAD_PARAM, 'classNotFound', {}, 'class_id');
    if (body.reset) await repo.removeTeamTaxon(this.db.kysely, team, cls.id);
    else
      await repo.saveTeamTaxon(this.db.kysely, {
        group_id: team,
        class_id: cls.id,
        taxon_name: body.taxon_name,
        // No taxon, nothing else: an AphiaID or a Chinese name without a name would describe nothing.
        aphia_id: body.taxon_name === '' ? null : body.aphia_id,
        name_zh: body.taxon_name === '' || !body.name_zh ? null : body.name_zh,
        updated_by: actor.id,
        updated_at: this.clock(),
      });
    const taxa = await taxaOf(this.db, team, [cls]);
    return { class_id: cls.id, taxon: taxa.get(cls.id) ?? null };
  }
}
