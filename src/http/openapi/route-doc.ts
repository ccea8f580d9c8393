import { Type, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import type { Tag } from './tags.js';

/**
 * How a route is described in the OpenAPI document. It lives in the route's `config.doc`, where
 * Fastify neither validates requests nor compiles serializers: the routes read their input
 * leniently on purpose (aliases, blank handling, JSON or form, defaults for bad numbers) and
 * send their output as they build it, so the description must never change what is accepted or
 * a byte of what is sent. Only a route's own `schema.body` (where one exists) validates, and
 * the document shows that same schema.
 */
export interface RouteDoc {
  tags: [Tag, ...Tag[]];
  summary: string;
  description?: string;
  /** Documented query parameters (not validated). */
  querystring?: TObject;
  /** Documented path parameters (not validated). */
  params?: TObject;
  /** Documented body; defaults to the route's validating `schema.body`. */
  body?: TSchema;
  /** Media types of the body; JSON when absent. */
  consumes?: readonly string[];
  /** The body must be sent (its required fields are in it); otherwise no body means no fields. */
  bodyRequired?: true;
  /** What a session changes on a public route (it is then shown as optional). */
  sessionOptional?: string;
  /** The route's own answers; the document adds those every route of its kind gives (guards, 500 …). */
  responses: Record<number, ResponseDoc | ResponseDoc[]>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    doc?: RouteDoc;
    /** Limited by a limiter of its own hooks rather than `rateLimit` (the search's, shared by GET and POST): documents its 429. */
    rateLimited?: boolean;
  }
}

/** One answer of a route for one status. */
export type ResponseDoc =
  | { kind: 'json'; description: string; schema: TSchema }
  | { kind: 'failure'; description: string; data?: TSchema }
  | { kind: 'content'; description: string; mediaTypes: readonly string[]; headers?: Record<string, string> }
  | { kind: 'redirect'; description: string };

/** Any JSON body. */
export const json = (description: string, schema: TSchema): ResponseDoc => ({ kind: 'json', description, schema });

/** The success envelope `{success: true, message?, data?}`; `message` is a schema (e.g. a literal) when the route sends one. */
export function okBody(parts: { data?: TSchema; message?: TSchema }): TObject {
  const props: TProperties = { success: Type.Literal(true) };
  if (parts.message) props.message = parts.message;
  if (parts.data) props.data = parts.data;
  return Type.Object(props, { additionalProperties: false });
}

/** A success envelope answer with `data` (and a message when given). */
export const ok = (description: string, data?: TSchema, message?: TSchema): ResponseDoc => json(description, okBody({ data, message }));

/**
 * The failure envelope `{success: false, message, ...}` of the one error handler. The document
 * builds its schema (with `data: {}` on routes whose failures always carry it); `data` here
 * describes the extra details some failures carry.
 */
export const failure = (description: string, data?: TSchema): ResponseDoc => ({ kind: 'failure', description, data });

/** A body that is not JSON: a page, a workbook, an image, an asset. */
export const content = (description: string, mediaTypes: readonly string[], headers?: Record<string, string>): ResponseDoc => ({
  kind: 'content',
  description,
  mediaTypes,
  headers,
});

export const HTML = ['text/html'] as const;

/** A redirect (the `Location` header says where). */
export const redirect = (description: string): ResponseDoc => ({ kind: 'redirect', description });

/**
 * A request field with its aliases: every name documented, none marked required (the route
 * takes the first non-blank one, so "required" means "one of them"). The aliases' descriptions
 * point at the main name.
 */
export function aliased(name: string, aliases: readonly string[], schema: TSchema): TProperties {
  const props: TProperties = { [name]: Type.Optional(schema) };
  for (const alias of aliases) props[alias] = Type.Optional(Type.Unsafe({ ...schema, description: `Alias of \`${name}\`.` }));
  return props;
}

/** The bodies a form-or-JSON route reads. */
export const FORM_OR_JSON = ['application/json', 'application/x-www-form-urlencoded'] as const;

/** A list's `limit` and `offset` query fields, as the list routes clamp them. */
export const pageQuery = (defaultLimit: number, maxLimit: number): TProperties => ({
  limit: Type.Optional(Type.Integer({ default: defaultLimit, description: `Default ${defaultLimit}, clamped to 1..${maxLimit}.` })),
  offset: Type.Optional(Type.Integer({ default: 0, description: 'Default 0, at least 0.' })),
});

/** An object of documented input fields (query string, form or JSON body): anything else is ignored, not refused. */
export const fields = (props: TProperties, description?: string): TObject => Type.Object(props, description ? { description } : {});

/** Path parameters; every one a string (ids are strings throughout the interface). */
export function pathParams(described: Record<string, string>): TObject {
  const props: TProperties = {};
  for (const [name, description] of Object.entries(described)) props[name] = Type.String({ description });
  return Type.Object(props);
}

/** A route's description as a module writes it: under the module's tag unless it names its own. */
export type ModuleRouteDoc = Omit<RouteDoc, 'tags'> & { tags?: RouteDoc['tags'] };

/**
 * A module's route descriptions, each under the module's tag unless it names its own; typed as
 * plain RouteDocs (the TypeBox types inside are deep; Fastify would otherwise infer its route
 * generics from them).
 */
export function routeDocs<K extends string>(tag: Tag, docs: Record<K, ModuleRouteDoc>): Record<K, RouteDoc> {
  const described = {} as Record<K, RouteDoc>;
  for (const name of Object.keys(docs) as K[]) described[name] = { tags: [tag], ...docs[name] };
  return described;
}
