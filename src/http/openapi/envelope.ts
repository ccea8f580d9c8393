import { Type, type TSchema } from '@sinclair/typebox';

const message = Type.String({ description: "What went wrong, in Chinese for the user (or the interface's fixed English text)." });
const code = Type.Optional(Type.String({ description: 'Machine-readable reason of some refusals, e.g. `HAS_BOUND_USERS`, `MUST_CHANGE_PASSWORD`.' }));

/** The failure envelope every route answers through the one error handler. */
export const Failure = Type.Object(
  {
    success: Type.Literal(false),
    message,
    code,
    data: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'Details some failures carry.' })),
  },
  { $id: 'Failure', additionalProperties: false, description: 'The failure envelope.' },
);

/** The failure envelope of the routes whose failures always carry `data: {}`. */
export const FailureWithEmptyData = Type.Object(
  { success: Type.Literal(false), message, code, data: Type.Object({}, { additionalProperties: false, description: 'Always empty.' }) },
  { $id: 'FailureWithEmptyData', additionalProperties: false, description: 'The failure envelope with `data: {}`.' },
);

/** A failure envelope whose `data` carries one of the given details (still optional: guards and body errors carry none). */
export function failureWithData(details: TSchema[]): TSchema {
  return Type.Object(
    { success: Type.Literal(false), message, code, data: Type.Optional(details.length === 1 ? details[0] : Type.Union(details)) },
    { additionalProperties: false },
  );
}
