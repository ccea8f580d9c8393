import { Type, type ObjectOptions, type TProperties, type TSchema } from '@sinclair/typebox';

/**
 * Building blocks of the response shapes. Response objects are closed (no field beyond those
 * described), so the suite's responses show any field the document misses.
 */
export const Shape = <T extends TProperties>(props: T, opts: ObjectOptions = {}) => Type.Object(props, { additionalProperties: false, ...opts });

/** A shape the document lists once, under components/schemas by its id, and refers to wherever it is used. */
export const Component = <T extends TProperties>(id: string, description: string, props: T) => Shape(props, { $id: id, description });

export const Nullable = <T extends TSchema>(schema: T, description?: string) => Type.Union([schema, Type.Null()], description ? { description } : {});

/** Ids are integers shown as text throughout the interface. */
export const Id = (description = 'Identifier.') => Type.String({ description });

export const Timestamp = (description = 'ISO-8601 UTC time.') => Type.String({ description });

export const Count = (description: string) => Type.Integer({ minimum: 0, description });

/** An `{id, name}` reference to a record of another table. */
export const Named = (description: string, opts: ObjectOptions = {}) => Shape({ id: Id(), name: Type.String() }, { description, ...opts });

/** An `{limit, offset, total}` page description (listings with limit and offset). */
export const PageFields = {
  total: Count('How many match in all.'),
  limit: Type.Integer({ description: 'The page size used (after defaults and clamping).' }),
  offset: Type.Integer({ description: 'The offset used.' }),
};
