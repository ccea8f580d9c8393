import { Type } from '@sinclair/typebox';
import { failure, fields, ok, routeDocs } from '../../http/openapi/route-doc.js';
import { Shape } from '../../http/openapi/shapes.js';
import { RiskSubject } from './search.openapi.js';
import { MAX_RESULTS } from './search.service.js';
import { MAX_SUGGEST_INPUT, MAX_SUGGESTIONS, SUGGESTION_KINDS } from './suggest.js';

const regionFilter = Type.Optional(
  Type.Union([Type.String(), Type.Array(Type.String())], { description: 'Region ids, codes or names (alias `region_id`; repeat for several).' }),
);

export const publicPageDocs = routeDocs('search', {
  suggest: {
    summary: 'Suggestions as a person types (the public search page)',
    description: `Searchable permits' names, what people call them, and questions at least three different people asked and found answered; at most ${MAX_SUGGESTIONS}, matches at the start first. Blank input answers the popular questions.`,
    querystring: fields({
      q: Type.Optional(Type.String({ description: `What has been typed so far (alias \`query\`); longer than ${MAX_SUGGEST_INPUT} characters answers none.` })),
      region: regionFilter,
    }),
    responses: {
      200: ok(
        'The suggestions, best first.',
        Shape({ suggestions: Type.Array(Shape({ text: Type.String(), kind: Type.String({ enum: [...SUGGESTION_KINDS] }) })) }),
      ),
      400: failure('A parameter given twice: 参数 q 应为字符串'),
    },
  },
  permits: {
    summary: 'Searchable permits by id, with their risks (a shared notice)',
    description: 'Ids of permits that are hidden or gone are left out of the answer: the caller compares.',
    querystring: fields({ ids: Type.String({ description: `Permit ids, comma-separated, at most ${MAX_RESULTS}.` }) }),
    responses: {
      200: ok('The permits in the order asked, as search result items (score 0, nothing matched).', Shape({ permits: Type.Array(RiskSubject) })),
      400: failure(`No ids, or more than ${MAX_RESULTS}, or not positive integers: 请给出许可事项编号（以逗号分隔，最多 ${MAX_RESULTS} 个）`),
    },
  },
});
