import type { Static } from '@sinclair/typebox';
import type { User } from '../../../src/modules/accounts/accounts.openapi.ts';
import type { Department } from '../../../src/modules/departments/departments.presenter.ts';
import type { CreateUserBody, UpdateUserBody } from '../../../src/modules/users/users.schema.ts';
import { api } from '../shared/api';

export type UserPayload = Static<typeof User>;

const userPath = (id: string) => `/admin/users/${encodeURIComponent(id)}`;

export const fetchUsers = async (includeInactive = true) =>
  (await api.get<{ users: UserPayload[] }>('/admin/users', { include_inactive: includeInactive })).users;

/** A new account; `department` is the one created or reused for it (null when an existing one was named). */
export const createUser = (body: Static<typeof CreateUserBody>) =>
  api.post<{ user: UserPayload; department: Static<typeof Department> | null }>('/admin/users', body);

/** Only the fields given change (a password here is a reset by the administrator). */
export const updateUser = (id: string, body: Static<typeof UpdateUserBody>) => api.patch<{ user: UserPayload }>(userPath(id), body);

export const deleteUser = (id: string) => api.delete(userPath(id));
