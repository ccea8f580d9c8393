import { Type } from '@sinclair/typebox';
import { json, okBody, routeDocs } from '../../http/openapi/route-doc.js';
import { Shape } from '../../http/openapi/shapes.js';

export const healthDocs = routeDocs('service', {
  healthz: {
    summary: 'Health of the instance (outside {api_root})',
    description: 'For orchestration (liveness): 200 when the database answers, whether or not the instance is ready (`ready`; /readyz).',
    responses: {
      200: json(
        'Healthy.',
        Shape({ status: Type.Literal('ok'), database: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')]), ready: Type.Boolean() }),
      ),
      503: json('The database does not answer.', Shape({ status: Type.Literal('unavailable'), message: Type.String() })),
    },
  },
  readyz: {
    summary: 'Readiness of the instance (outside {api_root})',
    description:
      'For load balancers: 200 once the instance answers searches (its search index loaded; the search answers from memory even while the database is away), 503 with Retry-After while it loads.',
    responses: {
      200: json('Ready.', Shape({ status: Type.Literal('ready') })),
      503: json('Loading its search index.', Shape({ status: Type.Literal('loading'), message: Type.String() })),
    },
  },
  testSimple: { summary: 'Liveness test route', responses: { 200: json('Always.', Shape({ status: Type.Literal('ok') })) } },
  adminTest: { summary: 'Test route (no guard)', responses: { 200: json('Always.', okBody({ message: Type.Literal('Test route works!') })) } },
});
