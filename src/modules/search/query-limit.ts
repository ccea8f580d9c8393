/** The longest question, for /v2, why-not-found and the assistants' search tools alike. */
export const MAX_QUERY_LENGTH = 500;
