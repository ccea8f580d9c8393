import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { adminChange } from '../../http/guards.js';
import { asInput, readString } from '../../http/readers.js';
import { Text } from '../../http/body-fields.js';
import { createTheme, deleteTheme, listCatalogThemes, renameTheme } from './themes-catalog.service.js';
import { presentTheme } from './themes.presenter.js';
import { themeDocs } from './themes.openapi.js';

const themeName = 'The theme name; required; unique.';
const CreateThemeBody = Type.Object({ name: Text(100, themeName) }, { additionalProperties: false });
const RenameThemeBody = Type.Object({ name: Text(100, themeName), new_name: Text(100, 'Alias of `name`.') }, { additionalProperties: false });

type WithThemeId = FastifyRequest<{ Params: { theme_id: string } }>;

const operation = adminChange('theme');

/** The theme catalog: admin guard, JSON errors, every change logged and sent to search. */
export function registerThemesCatalogRoutes(app: FastifyInstance, ctx: AppContext): void {
  const base = `${ctx.config.apiRoot}/admin/themes/catalog`;

  app.get(base, { config: { guard: 'admin', doc: themeDocs.catalog } }, async () => ({ success: true, data: { themes: await listCatalogThemes(ctx.db) } }));

  app.post(base, { schema: { body: CreateThemeBody }, config: operation('create', '创建主题', themeDocs.create) }, async (req) => {
    const theme = await createTheme(ctx, readString(asInput(req.body), 'name'));
    req.operation.targetId = theme.id;
    req.operation.targetName = theme.name;
    req.operation.summary = `创建主题 ${theme.name}`;
    return { success: true, message: '主题已创建', data: { theme: presentTheme(theme) } };
  });

  app.patch(
    `${base}/:theme_id`,
    { schema: { body: RenameThemeBody }, config: operation('update', '重命名主题', themeDocs.rename) },
    async (req: WithThemeId) => {
      req.operation.targetId = req.params.theme_id;
      const { theme, previousName } = await renameTheme(ctx, req.params.theme_id, readString(asInput(req.body), 'name', 'new_name'));
      req.operation.targetName = theme.name;
      req.operation.summary = `主题 ${previousName} 重命名为 ${theme.name}`;
      return { success: true, message: '主题已更新', data: { theme: presentTheme(theme) } };
    },
  );

  app.delete(`${base}/:theme_id`, { config: operation('delete', '删除主题', themeDocs.remove) }, async (req: WithThemeId) => {
    req.operation.targetId = req.params.theme_id;
    const result = await deleteTheme(ctx, req.params.theme_id);
    req.operation.targetName = result.theme.name;
    req.operation.summary = `删除主题 ${result.theme.name}（解除 ${result.removed_region_links} 个区域关联、${result.removed_permit_links} 个许可关联）`;
    return { success: true, message: '主题已删除', data: result };
  });
}
