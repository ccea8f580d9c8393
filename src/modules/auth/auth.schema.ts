import { Type } from '@sinclair/typebox';

const credential = Type.String({ maxLength: 256 });

export const LoginBody = Type.Object(
  {
    username: Type.Optional(credential),
    password: Type.Optional(credential),
    next: Type.Optional(Type.String({ maxLength: 2048 })),
  },
  { additionalProperties: false },
);

export const EmptyBody = Type.Union([Type.Object({}, { additionalProperties: false }), Type.Null()]);
