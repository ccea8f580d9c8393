const ROOT_MARKER = '/api/workflow/lawrisk';

/** `{api_root}` of this deployment, read from the page's own address (APP_PREFIX is set at run time). */
export function findApiRoot(pathname: string): string {
  const at = pathname.indexOf(ROOT_MARKER);
  return at >= 0 ? pathname.slice(0, at + ROOT_MARKER.length) : `/app${ROOT_MARKER}`;
}

export const apiRoot = findApiRoot(window.location.pathname);
