import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../../context.js';
import { badRequest } from '../../../http/errors.js';
import { asInput, readInt, readString } from '../../../http/readers.js';
import type { SearchIndexHolder } from '../search-index.service.js';
import { parseRecordId } from '../../../http/record-id.js';
import { JSON_FILE_TYPE, sendAttachment } from '../../../http/attachment.js';
import { KIND_LABELS, MAX_ENTRIES, parseStoredBody } from './lexicon-rules.js';
import { previewLexiconChange, PREVIEW_LIMIT } from './lexicon-preview.js';
import type { LexiconRow } from './lexicon.repository.js';
import { lexiconDocs } from './lexicon.openapi.js';
import { presentLexiconEntry } from './lexicon.presenter.js';
import { exportLexicon, importLexicon, lexiconNames, listLexicon, readLexiconChange, saveLexiconChange, type LexiconChange } from './lexicon.service.js';
import { LEXICON_KINDS, type LexiconKind } from './lexicon.table.js';
import { adminChange } from '../../../http/guards.js';

/** A lexicon file of the most entries, with room for notes. */
const IMPORT_BODY_LIMIT = 8 * 1024 * 1024;

type WithEntryId = FastifyRequest<{ Params: { entry_id: string } }>;

const lexiconChange = adminChange('search_lexicon');

/** Entries as the API shows them, with the names of what they name. */
async function presentEntries(ctx: AppContext, rows: LexiconRow[]) {
  const bodies = rows.map((r) => parseStoredBody(r.kind, r.body));
  const names = await lexiconNames(ctx.db, bodies);
  return rows.map((r, i) => presentLexiconEntry(r, bodies[i], names));
}

/** What an entry is, whole, for the operation log: a removed entry is kept there only. */
const describe = (row: LexiconRow) => {
  const b = parseStoredBody(row.kind, row.body);
  const list = (ids: string[]) => (ids.length > 0 ? ids.join('、') : '无');
  const what =
    b.kind === 'synonym'
      ? `${b.words.join('/')}${b.replace ? '（替换内置）' : ''}`
      : b.kind === 'expansion'
        ? `${b.from} → ${b.to.join('、')}`
        : b.kind === 'alias'
          ? `${b.phrases.join('、')}（${b.code ?? b.pattern}）`
          : `${b.phrase}（${b.match === 'exact' ? '完全相同' : '包含'}；置顶 ${list(b.pins)}；隐藏 ${list(b.hides)}）`;
  const scope = row.region_id === null ? '全局' : `区域 ${row.region_id}`;
  return `${KIND_LABELS[row.kind]} ${what}，${scope}${row.note ? `，备注：${row.note}` : ''}`;
};

/** The administrators' search lexicon and curation (docs/search-lexicon.md): grade ≥ 90, global entries the super administrator's. */
export function registerLexiconRoutes(app: FastifyInstance, ctx: AppContext, holder: SearchIndexHolder): void {
  const root = `${ctx.config.apiRoot}/admin/search/lexicon`;

  app.get(root, { config: { guard: 'admin', failureMessage: '词库加载失败', doc: lexiconDocs.list } }, async (req) => {
    const input = asInput(req.query);
    const kind = readString(input, 'kind');
    if (kind !== undefined && !(LEXICON_KINDS as readonly string[]).includes(kind)) throw badRequest('词条类型必须是 synonym、expansion、alias 或 curation');
    const region = readString(input, 'region_id');
    const regionId = region === undefined ? undefined : region === 'global' ? null : parseRecordId(region);
    if (regionId === null && region !== 'global') throw badRequest('区域编号不正确');
    const limit = readInt(input, 'limit', { def: 50, min: 1, max: 200 });
    const offset = readInt(input, 'offset', { def: 0, min: 0 });
    const { rows, total } = await listLexicon(ctx.db, { kind: kind as LexiconKind | undefined, regionId, text: readString(input, 'q') }, { limit, offset });
    return { success: true, data: { entries: await presentEntries(ctx, rows), total, limit, offset, max_entries: MAX_ENTRIES } };
  });

  const save = async (req: FastifyRequest, change: LexiconChange, message: string) => {
    const { entry, previous } = await saveLexiconChange(ctx, req.user!, change);
    req.operation.targetId = entry.id;
    req.operation.targetName = describe(entry);
    req.operation.summary =
      change.action === 'create'
        ? `添加${describe(entry)}`
        : change.action === 'delete'
          ? `撤销${describe(entry)}`
          : `修改${describe(previous!)}，改为${describe(entry)}`;
    const [shown] = await presentEntries(ctx, [entry]);
    return { success: true, message, data: { entry: shown } };
  };

  app.post(root, { config: lexiconChange('create', '添加搜索词条', lexiconDocs.create) }, async (req) =>
    save(req, readLexiconChange('create', null, req.body), '词条已保存'),
  );
  app.patch(`${root}/:entry_id`, { config: lexiconChange('update', '修改搜索词条', lexiconDocs.update) }, async (req: WithEntryId) => {
    req.operation.targetId = req.params.entry_id;
    return save(req, readLexiconChange('update', req.params.entry_id, req.body), '词条已保存');
  });
  app.delete(`${root}/:entry_id`, { config: lexiconChange('delete', '撤销搜索词条', lexiconDocs.remove) }, async (req: WithEntryId) => {
    req.operation.targetId = req.params.entry_id;
    return save(req, readLexiconChange('delete', req.params.entry_id, null), '词条已撤销');
  });

  app.post(`${root}/preview`, { config: { guard: 'admin', doc: lexiconDocs.preview } }, async (req) => {
    const input = asInput(req.body);
    const action = input.action ?? 'create';
    if (action !== 'create' && action !== 'update' && action !== 'delete') throw badRequest('预览的操作必须是 create、update 或 delete');
    const change = readLexiconChange(action, input.entry_id, input.entry);
    const limit = readInt(input, 'limit', PREVIEW_LIMIT);
    return { success: true, data: await previewLexiconChange(ctx, holder, req.user!, change, limit) };
  });

  app.get(`${root}/export`, { config: { guard: 'admin', failureMessage: '词库导出失败', doc: lexiconDocs.export } }, async (_req, reply) => {
    const file = await exportLexicon(ctx);
    return sendAttachment(reply, `搜索词库-${file.exported_at.slice(0, 10)}.json`, JSON_FILE_TYPE, Buffer.from(JSON.stringify(file, null, 2)));
  });

  app.post(`${root}/import`, { bodyLimit: IMPORT_BODY_LIMIT, config: lexiconChange('import', '导入搜索词库', lexiconDocs.import) }, async (req) => {
    const result = await importLexicon(ctx, req.user!, req.body);
    req.operation.summary = `导入搜索词库：新增 ${result.added} 条，已存在 ${result.skipped} 条`;
    return { success: true, message: `导入完成：新增 ${result.added} 条，已存在 ${result.skipped} 条`, data: result };
  });
}
