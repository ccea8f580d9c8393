/**
 * What the pages show in Chinese where the service speaks in its interface's own words
 * (docs/pages.md, "Chinese for users"): the API keeps those words; the pages translate them.
 */

/** The interface's English messages, as a person should read them. */
const MESSAGES: Record<string, string> = {
  'Permit not found': '许可事项不存在（可能已被删除）',
  'Checkpoint not found': '检查点不存在（可能已被删除）',
  'Region not found': '区域不存在',
  'Theme not found': '主题不存在',
  'region is required': '请选择区域',
  'region and permit are required': '请指定区域和许可事项',
  'query is required': '请输入检索问题',
  'DB admin page not found': '数据库管理页面不存在',
  'Super admin page not found': '超级管理页面不存在',
};

/** A message of the service in Chinese (the service's own Chinese messages as they are). */
export const chineseMessage = (message: string): string => MESSAGES[message] ?? message;

/** What the service writes itself as a checkpoint's description. */
export function checkpointDescription(text: string): string {
  const backup = /^Auto backup before restoring checkpoint (\d+)$/.exec(text);
  return backup ? `恢复检查点 #${backup[1]} 前的自动备份` : text;
}

/** The tables a checkpoint copies, by what they hold. */
const TABLES: Record<string, string> = {
  regions: '区域',
  themes: '主题目录',
  region_themes: '区域主题',
  service_departments: '服务部门',
  users: '账号',
  permit_files: '文件归档',
  permits: '许可事项',
  permit_themes: '许可事项与主题的关联',
  approval_departments: '审批部门',
  permit_approval_departments: '许可事项与审批部门的关联',
  risks: '风险',
  snapshot_batches: '快照批次',
  snapshot_permits: '快照中的许可事项',
  snapshot_risks: '快照中的风险',
  app_meta: '系统设置',
  search_lexicon: '搜索词库',
  operation_logs: '操作日志',
  import_sessions: '导入会话',
};

export const tableLabel = (table: string): string => TABLES[table] ?? table;

/** Who changed something, when it was the service itself rather than a person. */
export const actorLabel = (name: string | null | undefined): string => (name === 'system' ? '系统' : name === 'cli' ? '命令行' : (name ?? ''));

/**
 * A person as every page names them: the account (username), with the display name before it
 * when it has one (超级管理员（admin）); the service itself as 系统.
 */
export function personLabel(p: { username: string | null; display_name?: string | null } | null): string {
  if (!p?.username) return p?.display_name || '—';
  if (p.username === 'system' || p.username === 'cli') return actorLabel(p.username);
  return p.display_name && p.display_name !== p.username ? `${p.display_name}（${p.username}）` : p.username;
}
