import { Type } from '@sinclair/typebox';
import { failure, fields, json, ok, routeDocs } from '../../../http/openapi/route-doc.js';
import { Component, Count, Id, Nullable, PageFields, Shape, Timestamp } from '../../../http/openapi/shapes.js';
import { LEXICON_KINDS } from './lexicon.table.js';
import { PREVIEW_LIMIT } from './lexicon-preview.js';

const Words = (description: string) => Type.Array(Type.String(), { description });
const PermitIds = (description: string) => Type.Array(Id(), { description });
const kind = Type.Union(
  LEXICON_KINDS.map((k) => Type.Literal(k)),
  {
    description:
      'synonym: a two-way group; expansion: a word that also means others (one way); alias: names of permits; curation: pins and hides for a question.',
  },
);

/** The fields of each kind, as requests give them and answers and exports show them. */
const kindFields = {
  words: Type.Optional(Words('synonym: the group, at least two words.')),
  replace_bundled: Type.Optional(Type.Boolean({ description: 'synonym: its words lose their bundled synonyms (general.txt).' })),
  from: Type.Optional(Type.String({ description: 'expansion: the word people say.' })),
  to: Type.Optional(Words('expansion: what it also means (the official names).')),
  phrases: Type.Optional(Words('alias: the names attached.')),
  code: Type.Optional(Nullable(Type.String(), "alias: the permits of this code (in the entry's region, or every region).")),
  pattern: Type.Optional(Nullable(Type.String(), 'alias: the permits whose name holds these fragments (`食品&经营&!变更`).')),
  phrase: Type.Optional(Type.String({ description: 'curation: the question.' })),
  match: Type.Optional(
    Type.Union([Type.Literal('exact'), Type.Literal('contains')], { description: 'curation: the question as a whole, or any question holding it.' }),
  ),
  pins: Type.Optional(PermitIds('curation: permits put first, in this order (at most 20).')),
  hides: Type.Optional(PermitIds('curation: permits removed from the answer (at most 50).')),
};

export const LexiconEntry = Component('LexiconEntry', "An administrator's entry of the search lexicon (docs/search-lexicon.md).", {
  id: Id(),
  kind,
  kind_label: Type.String({ description: 'The kind in Chinese.' }),
  region_id: Nullable(Id(), 'The region it belongs to; null: global.'),
  region_name: Nullable(Type.String()),
  ...kindFields,
  permits: Type.Record(Type.String(), Type.String(), { description: 'curation: the names of its pinned and hidden permits, by id.' }),
  note: Nullable(Type.String()),
  created_by: Nullable(Type.String()),
  created_at: Timestamp(),
  updated_by: Nullable(Type.String()),
  updated_at: Timestamp(),
});

export const EntryBody = Type.Object(
  {
    kind,
    region_id: Type.Optional(Nullable(Type.Union([Type.String(), Type.Integer()]), 'The region; absent or null: global (super administrator only).')),
    note: Type.Optional(Nullable(Type.String())),
    ...kindFields,
    aliases: Type.Optional(Words('Alias of `phrases`.')),
    words: Type.Optional(Type.Union([Words('synonym: the group.'), Type.String({ description: 'Separated by 、 , / or new lines.' })])),
    to: Type.Optional(Type.Union([Words('expansion: its targets.'), Type.String()])),
    phrases: Type.Optional(Type.Union([Words('alias: the names.'), Type.String()])),
    pins: Type.Optional(Type.Union([PermitIds('Pinned permits.'), Type.String()])),
    hides: Type.Optional(Type.Union([PermitIds('Hidden permits.'), Type.String()])),
    replace_bundled: Type.Optional(Type.Union([Type.Boolean(), Type.String()])),
  },
  { description: "An entry: its kind's fields, its region and a note." },
);

const Permit = { permit_id: Id(), name: Type.String() };
export const LexiconPreview = Component('LexiconPreview', 'What a change of the lexicon does to the questions people asked last.', {
  checked: Count('Distinct logged questions answered both ways.'),
  changed: Count('Of them, answered differently.'),
  asks: Count('How often the changed questions were asked.'),
  askers: Count('By how many distinct askers (counted per day).'),
  changes: Type.Array(
    Shape({
      query: Type.String(),
      region_ids: Nullable(Type.Array(Id())),
      asks: Count('Times asked.'),
      askers: Count('Distinct askers.'),
      before: Type.Array(Shape(Permit)),
      after: Type.Array(Shape(Permit)),
      entered: Type.Array(Shape({ ...Permit, rank: Type.Integer() })),
      left: Type.Array(Shape({ ...Permit, rank: Type.Integer() })),
      moved: Type.Array(Shape({ ...Permit, from: Type.Integer(), to: Type.Integer() })),
    }),
    { description: 'The changed questions asked most, first (at most 200).' },
  ),
});

/** A permit as a file names it: ids mean nothing in another database. */
const PermitReference = Type.Object({
  region: Type.String({ description: "Its region's code (name when it has none)." }),
  code: Nullable(Type.String(), 'Its code; null: found by its name.'),
  name: Type.String(),
});

const LexiconFile = Type.Object(
  {
    format: Type.Literal('lawrisk-search-lexicon'),
    version: Type.Literal(1),
    exported_at: Type.Optional(Timestamp()),
    entries: Type.Array(
      Type.Object({
        kind,
        region: Type.Optional(Type.String({ description: 'Region code (its name when it has none); absent: global.' })),
        note: Type.Optional(Type.String()),
        ...kindFields,
        pins: Type.Optional(Type.Array(PermitReference, { description: 'curation: pinned permits, in order.' })),
        hides: Type.Optional(Type.Array(PermitReference, { description: 'curation: hidden permits.' })),
      }),
    ),
  },
  { description: 'A lexicon as exported: what another district imports.' },
);

const refused = (what: string) => failure(`${what}: a clear Chinese message, nothing saved.`);
const entryParam = fields({ entry_id: Id('The entry.') });

export const lexiconDocs = routeDocs('search', {
  list: {
    summary: "The administrators' search lexicon",
    querystring: fields({
      kind: Type.Optional(kind),
      region_id: Type.Optional(Type.String({ description: "A region's entries; `global` for the global ones." })),
      q: Type.Optional(Type.String({ description: 'Entries holding this word.' })),
      limit: Type.Optional(Type.Integer({ description: 'Default 50, 1..200.' })),
      offset: Type.Optional(Type.Integer({ description: 'Default 0.' })),
    }),
    responses: {
      200: ok(
        'A page of entries, newest first.',
        Shape({ entries: Type.Array(LexiconEntry), ...PageFields, max_entries: Count('The most entries the lexicon holds.') }),
      ),
      400: refused('An unknown kind'),
    },
  },
  create: {
    summary: 'Adds an entry; every instance applies it within a second',
    body: EntryBody,
    bodyRequired: true,
    responses: {
      200: ok('The entry.', Shape({ entry: LexiconEntry }), Type.Literal('词条已保存')),
      400: refused('Bad input'),
      403: failure('权限不足: a global entry by someone other than the super administrator.'),
    },
  },
  update: {
    summary: 'Replaces an entry',
    body: EntryBody,
    bodyRequired: true,
    params: entryParam,
    responses: {
      200: ok('The entry.', Shape({ entry: LexiconEntry }), Type.Literal('词条已保存')),
      400: refused('Bad input'),
      403: failure('权限不足'),
      404: failure('词条不存在'),
    },
  },
  remove: {
    summary: 'Removes (reverts) an entry: what it changed returns to the bundled defaults',
    params: entryParam,
    responses: {
      200: ok('The entry removed.', Shape({ entry: LexiconEntry }), Type.Literal('词条已撤销')),
      403: failure('权限不足'),
      404: failure('词条不存在'),
    },
  },
  preview: {
    summary: 'What a change would do to the questions asked last, before it is saved',
    body: Type.Object({
      action: Type.Optional(Type.Union([Type.Literal('create'), Type.Literal('update'), Type.Literal('delete')], { description: 'Default create.' })),
      entry_id: Type.Optional(Id('update, delete: the entry.')),
      entry: Type.Optional(EntryBody),
      limit: Type.Optional(
        Type.Integer({
          description: `Distinct logged questions to answer, last asked first; default ${PREVIEW_LIMIT.def}, clamped to 1..${PREVIEW_LIMIT.max}.`,
        }),
      ),
    }),
    responses: {
      200: ok('The questions whose answers change.', LexiconPreview),
      400: refused('Bad input'),
      403: failure('权限不足'),
      404: failure('词条不存在'),
      429: failure('另一个预览正在进行，请稍后再试'),
    },
  },
  export: {
    summary: 'The lexicon as a file another district can import',
    responses: { 200: json('The file (a download), as the import takes it.', LexiconFile) },
  },
  import: {
    summary: 'Adds the entries of an exported file, all or none',
    body: LexiconFile,
    responses: {
      200: ok(
        'How many were added and how many were already there.',
        Shape({ added: Count('Entries added.'), skipped: Count('Entries identical to one already there.') }),
        Type.String(),
      ),
      400: refused('Not a lexicon file, or a bad entry (named by its place in the file)'),
      403: failure('权限不足'),
    },
  },
});
