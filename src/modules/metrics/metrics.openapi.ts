import { content, failure, routeDocs } from '../../http/openapi/route-doc.js';
import { METRICS_LOCAL_ONLY, METRICS_TOKEN_REQUIRED } from './metrics-access.js';

export const metricsDocs = routeDocs('service', {
  metrics: {
    summary: 'Prometheus metrics of the instance (outside {api_root})',
    description:
      'Request counts and latencies per route pattern, search latency (cached answers apart), the search index (documents, terms, ' +
      'version, age), change-feed lag, import and checkpoint durations, the database pool and the process. Who may read it does not ' +
      'depend on a login: with METRICS_TOKEN set, whoever sends `Authorization: Bearer <METRICS_TOKEN>`; without it, a scraper on ' +
      'this host only (a loopback connection that did not come through a proxy, naming localhost, 127.0.0.1, [::1] or the configured ' +
      'HOST in its Host header). docs/deploy.md lists the metrics.',
    responses: {
      200: content('The metrics in the Prometheus text format 0.0.4.', ['text/plain']),
      401: failure(`METRICS_TOKEN is set and the request does not carry it: ${METRICS_TOKEN_REQUIRED}`),
      403: failure(`No METRICS_TOKEN, and the request is not a local one: ${METRICS_LOCAL_ONLY}`),
    },
  },
});
