import type { Static } from '@sinclair/typebox';
import type { CurrentUser } from '../../../src/modules/auth/auth.openapi.ts';
import type { LoginBody, OwnPasswordBody } from '../../../src/modules/auth/auth.schema.ts';
import { api } from '../shared/api';

/** The session's own calls (docs/pages.md, 登录): a 401 here is an answer, not a reason to go to the login page. */

export type CurrentUserPayload = Static<typeof CurrentUser>;

export const fetchMe = async () => (await api.get<{ user: CurrentUserPayload }>('/auth/me')).user;

export const login = (body: Static<typeof LoginBody>) => api.post<{ user: CurrentUserPayload; redirect: string }>('/auth/login', body, { silent: true });

export const logout = () => api.post('/auth/logout', {}, { silent: true });

export const changeOwnPassword = (body: Static<typeof OwnPasswordBody>) => api.post('/auth/password', body);
