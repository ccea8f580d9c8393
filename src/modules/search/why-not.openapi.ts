import { Type } from '@sinclair/typebox';
import { aliased, failure, fields, ok, routeDocs } from '../../http/openapi/route-doc.js';
import { Component, Nullable, Shape } from '../../http/openapi/shapes.js';
import { regionToken } from '../regions/regions.openapi.js';
import { CUT_REASONS, WHY_NOT_VERDICTS } from './engine/types.js';
import { HitConcept } from './search.openapi.js';

export const WhyNotAnswer = Component('WhyNotAnswer', 'Why a permit is or is not in the answer to a question (docs/search.md).', {
  permit: Nullable(Shape({ id: Type.String(), name: Type.String(), region: Type.String() }), 'The permit, when the index holds it.'),
  verdict: Type.Union(
    WHY_NOT_VERDICTS.map((v) => Type.Literal(v)),
    {
      description:
        "unknown: no such permit in the index; hidden: not searchable; region: outside the region filter; curated_out: an administrator's curation hides it from this question; pinned: put at `rank` by curation; no_terms: no word of the question in its text or knowledge; found: in the answer at `rank`; no_answer: the whole question is answered with nothing, for `reason`; cut: scored and cut, for `reason`; below_limit: after the answer's 20th hit; not_retrieved: not among the candidates retrieval keeps for ranking (by the score before the explanation, name and stage factors).",
    },
  ),
  rank: Nullable(Type.Integer({ minimum: 1 }), 'Its place in the answer when found.'),
  reason: Nullable(Type.String({ enum: [...CUT_REASONS] }), 'Why it was cut, or why the question has no answer.'),
  score: Nullable(Type.Number(), 'Its own score for the question.'),
  explained: Nullable(Type.Number(), 'How well it explains the question (0..1).'),
  best_score: Nullable(Type.Number(), 'The score of the best hit (answered or not).'),
  breakdown: Type.Record(Type.String(), Type.Number(), { description: 'Its score per field and factor, as in the search debug output.' }),
  concepts: Type.Array(HitConcept, { description: 'What of it matched each word of the question.' }),
});

export const whyNotDocs = routeDocs('search', {
  whyNot: {
    summary: 'Why a permit is or is not found for a question',
    description: 'Administrators (grade ≥ 90) only: it shows hidden permits and every region.',
    querystring: fields({
      ...aliased('query', ['q', 'text'], Type.String({ maxLength: 500, description: 'The question.' })),
      permit_id: Type.String({ description: 'The permit id.' }),
      ...regionToken(false),
    }),
    responses: {
      200: ok("The verdict and the permit's own evidence.", WhyNotAnswer),
      400: failure('请输入检索问题 / 请指定许可事项 / 查询内容过长（最多 500 个字符）'),
    },
  },
});
