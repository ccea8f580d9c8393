import { escapeHtml, simplePage } from '../../http/pages-html.js';

const ERRORS: Record<string, string> = {
  credentials: '用户名或密码错误',
  inactive: '账号已停用',
  locked: '登录失败次数过多，请 15 分钟后再试',
  missing: '请输入用户名和密码',
  expired: '登录已过期，请重新登录',
};

/**
 * The minimal login page: a plain form posting to the login route, so it works with no script
 * at all (the full Vue page replaces it when the web pages are built).
 */
export function loginPage(apiRoot: string, next: string | null, errorCode: string | null): string {
  // An own key only: `?error=constructor` must not find Object.prototype's.
  const error = errorCode ? (Object.hasOwn(ERRORS, errorCode) ? ERRORS[errorCode] : '登录失败') : null;
  return simplePage(
    '登录 - 许可事项法律风险管理',
    `<h1>许可事项法律风险管理</h1>
${error ? `<div class="error" role="alert">${escapeHtml(error)}</div>` : ''}
<form method="post" action="${escapeHtml(apiRoot)}/auth/login">
<label for="username">用户名</label><input id="username" name="username" autocomplete="username" required autofocus>
<label for="password">密码</label><input id="password" name="password" type="password" autocomplete="current-password" required>
${next ? `<input type="hidden" name="next" value="${escapeHtml(next)}">` : ''}
<button type="submit">登录</button>
</form>
<p><a href="${escapeHtml(apiRoot)}/">不是工作人员？查询办事需要的许可和法律风险（无需登录）</a></p>`,
  );
}

/** `next` is honoured only for a same-origin path under the API root (no scheme, host or `//`). */
export function safeNext(apiRoot: string, next: string | undefined | null): string | null {
  if (!next) return null;
  if (!next.startsWith(`${apiRoot}/`) && next !== apiRoot) return null;
  if (next.startsWith('//') || /[\\\r\n\t]/.test(next) || /^[a-z][a-z0-9+.-]*:/i.test(next)) return null;
  try {
    const u = new URL(next, 'http://same.invalid');
    if (u.host !== 'same.invalid' || !u.pathname.startsWith(`${apiRoot}/`)) return null;
    return u.pathname + u.search + u.hash;
  } catch {
    return null;
  }
}
