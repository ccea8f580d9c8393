import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Static } from '@sinclair/typebox';
import type { Config } from '../../config.js';
import type { AppContext } from '../../context.js';
import { nowIso } from '../../db/dialect.js';
import { buildTemplateWorkbook } from '../importer/template/build-template.js';
import type { TemplateMeta as TemplateMetaSchema } from './files.openapi.js';

export const TEMPLATE_FILENAME = 'permit-import-template.xlsx';

/** Metadata of the import template (GET /admin/templates/permit). */
export type TemplateMeta = Static<typeof TemplateMetaSchema>;

/** Who wrote the file and how, kept beside it so file and metadata always travel together. */
interface Sidecar {
  sha256: string;
  updated_at: string;
  updated_by: string | null;
  source: TemplateMeta['source'];
}

const dirOf = (config: Config) => join(config.dataDir, 'templates');
export const templatePath = (config: Config) => join(dirOf(config), TEMPLATE_FILENAME);
const sidecarPath = (config: Config) => join(dirOf(config), 'permit-import-template.json');
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Write to a temporary file, then rename: a reader never sees half a template. */
async function writeAtomically(path: string, content: Buffer | string): Promise<void> {
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(tmp, content);
  await rename(tmp, path);
}

/** The template's bytes, or null when the file is absent. */
export async function readTemplate(config: Config): Promise<Buffer | null> {
  try {
    return await readFile(templatePath(config));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

export async function templateMetadata(config: Config): Promise<TemplateMeta | null> {
  const content = await readTemplate(config);
  if (!content) return null;
  const hash = sha256(content);
  let side: Sidecar | null;
  try {
    side = JSON.parse(await readFile(sidecarPath(config), 'utf8')) as Sidecar;
  } catch {
    side = null;
  }
  // A file replaced by hand (its hash no longer matches) counts as uploaded, by an unknown person.
  const known = side && side.sha256 === hash ? side : null;
  const updatedAt = known?.updated_at ?? (await stat(templatePath(config))).mtime.toISOString();
  return {
    filename: TEMPLATE_FILENAME,
    size: content.length,
    updated_at: updatedAt,
    updated_by: known?.updated_by ?? null,
    sha256: hash,
    source: known?.source ?? 'uploaded',
  };
}

export async function writeTemplate(config: Config, content: Buffer, by: string | null, source: TemplateMeta['source'], now: string) {
  await mkdir(dirOf(config), { recursive: true });
  await writeAtomically(templatePath(config), content);
  const side: Sidecar = { sha256: sha256(content), updated_at: now, updated_by: by, source };
  await writeAtomically(sidecarPath(config), JSON.stringify(side, null, 2));
}

/**
 * Start-up work of the import feature: puts the bundled template in DATA_DIR when none is there
 * (an uploaded one is never overwritten). A failure is logged, not fatal: the service still
 * runs, and the template download answers 404 until an administrator uploads one.
 */
export async function prepareImportFiles(ctx: AppContext): Promise<void> {
  try {
    if (await readTemplate(ctx.config)) return;
    await writeTemplate(ctx.config, await buildTemplateWorkbook(), 'system', 'bundled', nowIso(ctx.now));
    ctx.log.info(`import template written to ${templatePath(ctx.config)}`);
  } catch (err) {
    ctx.log.error({ err }, 'could not prepare the import template');
  }
}
