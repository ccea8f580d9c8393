import { Type } from '@sinclair/typebox';

// Field shapes of request bodies, shared by every module that takes a form or JSON body. Blank
// (null, '') is allowed wherever the interface gives blank a meaning; numbers may come as text
// (forms send text). The description is what the OpenAPI document shows for the field.
const described = (description?: string) => (description ? { description } : {});
export const Text = (maxLength: number, description?: string) => Type.Optional(Type.Union([Type.String({ maxLength }), Type.Null()], described(description)));
export const Scalar = (maxLength: number, description?: string) =>
  Type.Optional(Type.Union([Type.String({ maxLength }), Type.Number(), Type.Null()], described(description)));
export const Flag = (description?: string) =>
  Type.Optional(Type.Union([Type.Boolean(), Type.String({ maxLength: 8 }), Type.Number(), Type.Null()], described(description)));
