import { Type } from '@sinclair/typebox';
import { Text } from '../../http/body-fields.js';

export const LoginBody = Type.Object(
  {
    username: Type.Optional(Type.String({ maxLength: 256, description: 'Username (case-insensitive); required.' })),
    password: Type.Optional(Type.String({ maxLength: 256, description: 'Password, as typed; required.' })),
    next: Type.Optional(Type.String({ maxLength: 2048, description: 'Where to go after the login: a path under `{api_root}`, else ignored.' })),
  },
  { additionalProperties: false },
);

export const EmptyBody = Type.Union([Type.Object({}, { additionalProperties: false }), Type.Null()]);

export const OwnPasswordBody = Type.Object(
  { old_password: Text(256, 'The current password.'), new_password: Text(256, 'The new password: at least 8 characters, different from the current one.') },
  { additionalProperties: false },
);
