import { computed, ref } from 'vue';
import { personLabel } from './words';
import { fetchMe, logout as endSession } from '../api/auth';
import { pageUrls, passwordChangeRequired } from './api';
import type { CurrentUser } from './types';

/** The logged-in user of this page (GET /auth/me), shared by the layout and the views. */
export const currentUser = ref<CurrentUser | null>(null);

export const isSuperAdmin = computed(() => currentUser.value?.role === 'admin');
/** Grade 90 and above sees every region and may use the administration routes (docs/accounts.md). */
export const seesAllRegions = computed(() => (currentUser.value?.grade ?? 0) >= 90);

export async function loadCurrentUser(): Promise<CurrentUser> {
  const user = await fetchMe();
  currentUser.value = user;
  if (user.must_change_password) passwordChangeRequired.value = true;
  return user;
}

export async function logout(): Promise<void> {
  try {
    await endSession();
  } finally {
    window.location.href = pageUrls.login();
  }
}

export function userLabel(u: CurrentUser | null): string {
  return u ? personLabel(u) : '';
}

export const ROLE_LABELS: Record<string, string> = { admin: '超级管理员', department_admin: '部门管理员' };

export function roleLabel(role: string): string {
  return ROLE_LABELS[role] ?? role;
}

/** Role admin or grade 90 and above: what the admin guard of the JSON routes accepts. */
export const isAdministrator = computed(() => isSuperAdmin.value || seesAllRegions.value);
