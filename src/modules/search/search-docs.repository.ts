import type { Executor } from '../../db/database.js';
import { chunked, ID_CHUNK } from '../../db/batch.js';
import { listApprovalDepartmentNames, listThemesOfPermits } from '../permits/permits.repository.js';
import type { SearchDoc } from './engine/types.js';
import { assembleSearchDocs, type Intern } from './search-doc-rows.js';

/** Page size for loading the whole catalogue: bounded memory per query, few round trips. */
const LOAD_PAGE = 2000;

async function docsFor(db: Executor, permitIds: number[], intern?: Intern): Promise<SearchDoc[]> {
  if (permitIds.length === 0) return [];
  const [permits, themes, departments, risks] = await Promise.all([
    db
      .selectFrom('permits as p')
      .innerJoin('regions as r', 'r.id', 'p.region_id')
      .select([
        'p.id',
        'p.region_id',
        'r.name as region_name',
        'p.name',
        'p.code',
        'p.implementation_level',
        'p.internal_contact',
        'p.contact_info',
        'p.visible',
      ])
      .where('p.id', 'in', permitIds)
      .execute(),
    listThemesOfPermits(db, permitIds),
    listApprovalDepartmentNames(db, permitIds),
    db
      .selectFrom('risks')
      .select(['id', 'permit_id', 'risk_type', 'title', 'description', 'legal_basis', 'consequence', 'prevention', 'level'])
      .where('permit_id', 'in', permitIds)
      .orderBy('permit_id')
      .orderBy('position')
      .execute(),
  ]);
  return assembleSearchDocs(permitIds, { permits, themes, departments, risks }, intern);
}

/** The search documents of the given permits (missing ids are simply absent: deleted permits). */
export async function loadSearchDocs(db: Executor, permitIds: number[], intern?: Intern): Promise<SearchDoc[]> {
  const out: SearchDoc[] = [];
  for (const part of chunked(permitIds, ID_CHUNK)) out.push(...(await docsFor(db, part, intern)));
  return out;
}

/**
 * One copy of each distinct text over a whole load: a catalogue repeats its statutes,
 * consequences and advice across permits and regions, and each row the database gives is a copy
 * of its own. The map is let go with the load.
 */
function textInterner(): Intern {
  const seen = new Map<string, string>();
  const intern = (text: string | null): string | null => {
    if (text === null) return null;
    const known = seen.get(text);
    if (known !== undefined) return known;
    seen.set(text, text);
    return text;
  };
  return intern as Intern;
}

/** Every permit as a search document, read page by page in id order, each distinct text held once. */
export async function loadAllSearchDocs(db: Executor): Promise<SearchDoc[]> {
  const intern = textInterner();
  const out: SearchDoc[] = [];
  let after = 0;
  for (;;) {
    const ids = await db.selectFrom('permits').select('id').where('id', '>', after).orderBy('id').limit(LOAD_PAGE).execute();
    if (ids.length === 0) break;
    out.push(
      ...(await loadSearchDocs(
        db,
        ids.map((r) => r.id),
        intern,
      )),
    );
    after = ids[ids.length - 1].id;
  }
  return out;
}
