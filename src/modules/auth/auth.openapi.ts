import { Type } from '@sinclair/typebox';
import { failure, FORM_OR_JSON, json, ok, okBody, redirect, routeDocs } from '../../http/openapi/route-doc.js';
import { Component, Id, Nullable, Shape } from '../../http/openapi/shapes.js';
import { accountFields } from '../accounts/accounts.openapi.js';

/** The current-user object of interface section 5 (presentCurrentUser). */
export const CurrentUser = Component('CurrentUser', 'The logged-in user.', {
  ...accountFields,
  department: Nullable(Shape({ id: Id() }), 'The bound service department.'),
  region_id: Nullable(Id(), 'The region of the bound department: the data scope below grade 90.'),
  must_change_password: Type.Boolean({ description: 'Until it changes its password, the user may only read itself, change the password and log out.' }),
});

const me = Shape({ user: CurrentUser });

export const authDocs = routeDocs('auth', {
  login: {
    summary: 'Log in',
    bodyRequired: true,
    description:
      'Sets the session cookie (12 hours idle). A JSON body answers JSON; a form body answers 303: to `next` when it is ' +
      'a path under `{api_root}`, else to `{api_root}/db_admin`; on failure back to the login page with `error` ' +
      '(`missing`, `credentials`, `inactive`, `locked`) and `next` in the query — never the credentials. After 5 failed ' +
      'attempts for one username within 15 minutes that username is refused for 15 minutes.',
    consumes: FORM_OR_JSON,
    responses: {
      200: ok('Logged in (JSON).', Shape({ user: CurrentUser, redirect: Type.String({ description: 'Where the login page goes next.' }) })),
      303: redirect('Form login: to `next` (or the database administration page), or back to the login page with an error code.'),
      400: failure('用户名和密码均不能为空'),
      401: failure('用户名或密码错误'),
      403: failure('账号已停用'),
      429: failure('登录失败次数过多，该账号已被锁定，请 N 分钟后再试'),
    },
  },
  logout: {
    summary: 'Log out',
    description: 'Deletes the session (on every instance) and clears the cookie. Answers the same without a session.',
    responses: { 200: json('Logged out.', okBody({})) },
  },
  me: {
    summary: 'The current user',
    sessionOptional: 'required: without it the answer is 401.',
    responses: { 200: ok('The user.', me), 401: failure('请先登录') },
  },
  password: {
    summary: "Change one's own password",
    bodyRequired: true,
    description: 'Also the way out of `must_change_password`. The other sessions of the user end.',
    consumes: FORM_OR_JSON,
    responses: {
      200: json('Changed.', okBody({ message: Type.Literal('密码已修改') })),
      400: failure('原密码和新密码均不能为空, 原密码不正确, 新密码至少需要 8 个字符, 新密码不能与原密码相同'),
      429: failure('5 wrong old passwords within 15 minutes: 原密码错误次数过多，请 N 分钟后再试'),
    },
  },
});
