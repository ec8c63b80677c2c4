import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SystemInfo } from '@ipp/contracts';
import type { Db } from '../../db/database.ts';
import { countTeams } from '../teams/teams.repository.ts';
import { countUsers } from '../users/users.repository.ts';

const rootPackage = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../package.json');
const version = (JSON.parse(fs.readFileSync(rootPackage, 'utf8')) as { version: string }).version;

export class SystemInfoService {
  constructor(
    private readonly db: Db,
    private readonly startedAt: number,
  ) {}

  async get(): Promise<SystemInfo> {
    return {
      version,
      node: process.version,
      database: this.db.dialect,
      started_at: this.startedAt,
      teams: await countTeams(this.db.kysely, {}),
      users: await countUsers(this.db.kysely),
    };
  }
}
