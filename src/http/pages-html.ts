/** Escapes text for HTML: nothing user-supplied is ever rendered as markup. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A complete small page in the service's style (no inline script: the CSP forbids it). */
export function simplePage(title: string, body: string): string {
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{margin:0;font-family:-apple-system,"PingFang SC","Microsoft YaHei",sans-serif;background:#f0f2f5;color:#303133}
.card{max-width:420px;margin:12vh auto;background:#fff;border-radius:8px;box-shadow:0 2px 12px rgba(0,0,0,.08);padding:32px}
h1{font-size:20px;margin:0 0 20px}label{display:block;margin:14px 0 6px;font-size:14px;color:#606266}
input{width:100%;box-sizing:border-box;padding:9px 12px;border:1px solid #dcdfe6;border-radius:4px;font-size:14px}
button{margin-top:22px;width:100%;padding:10px;border:0;border-radius:4px;background:#409eff;color:#fff;font-size:15px;cursor:pointer}
.error{background:#fef0f0;color:#f56c6c;padding:8px 12px;border-radius:4px;font-size:14px;margin-bottom:8px}
a{color:#409eff}
</style></head><body><div class="card">${body}</div></body></html>`;
}

export function forbiddenPage(apiRoot: string): string {
  return simplePage(
    '权限不足',
    `<h1>权限不足</h1><p>当前账号无权访问此页面，请使用超级管理员账号登录。</p>
<p><a href="${escapeHtml(apiRoot)}/db_admin">返回数据库管理</a> · <a href="${escapeHtml(apiRoot)}/login">切换账号</a></p>`,
  );
}
