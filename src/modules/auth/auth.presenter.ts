import type { Static } from '@sinclair/typebox';
import { recordIdText } from '../../http/record-id.js';
import { presentAccountIdentity } from '../accounts/accounts.presenter.js';
import type { CurrentUser as CurrentUserSchema } from './auth.openapi.js';
import type { CurrentUser } from './current-user.js';

/** The API shape of the current user (ids as strings, as every id the API writes). */
export function presentCurrentUser(u: CurrentUser): Static<typeof CurrentUserSchema> {
  return { ...presentAccountIdentity(u), department: u.department, region_id: recordIdText(u.region_id), must_change_password: u.must_change_password };
}
