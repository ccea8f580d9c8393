/** The current-user object of interface section 5, plus what guards and data scope need. */
export interface CurrentUser {
  id: number;
  username: string;
  display_name: string | null;
  role: string;
  grade: number;
  department: { id: string } | null;
  /** Region of the bound department: the data scope of users below grade 90. */
  region_id: number | null;
  must_change_password: boolean;
}

/** Who a change is attributed to: display name, else username, else id. */
export function operatorName(u: CurrentUser | null): string {
  if (!u) return 'admin';
  return u.display_name || u.username || String(u.id);
}

/** `edited_by` default chain: username, then display name, then `admin`. */
export function defaultEditor(u: CurrentUser | null): string {
  return u?.username || u?.display_name || 'admin';
}
