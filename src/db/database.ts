import type { Kysely, Transaction } from 'kysely';
import type { Tables as Regions } from '../modules/regions/regions.table.js';
import type { Tables as Themes } from '../modules/themes/themes.table.js';
import type { Tables as Permits } from '../modules/permits/permits.table.js';
import type { Tables as Departments } from '../modules/departments/departments.table.js';
import type { Tables as Users } from '../modules/accounts/users.table.js';
import type { Tables as Sessions } from '../modules/sessions/sessions.table.js';
import type { Tables as ImportSessions } from '../modules/importer/import-sessions.table.js';
import type { Tables as Files } from '../modules/files/permit-files.table.js';
import type { Tables as Snapshots } from '../modules/snapshots/snapshots.table.js';
import type { Tables as Checkpoints } from '../modules/checkpoints/checkpoints.table.js';
import type { Tables as OperationLog } from '../modules/operation-log/operation-log.table.js';
import type { Tables as Meta } from '../modules/meta/meta.table.js';
import type { Tables as QueryLog } from '../modules/query-log/query-log.table.js';
import type { Tables as SearchLexicon } from '../modules/search/lexicon/lexicon.table.js';

/** The whole schema: the union of every module's table file. */
export interface Database
  extends Regions, Themes, Permits, Departments, Users, Sessions, ImportSessions, Files, Snapshots, Checkpoints, OperationLog, Meta, QueryLog, SearchLexicon {}

export type DB = Kysely<Database>;
/** Repositories take either the database or an open transaction. */
export type Executor = Kysely<Database> | Transaction<Database>;
