import { afterEach, expect } from 'vitest';
import { takeResponseProblems } from './helpers/openapi-check.js';

// Every test fails when a response it caused (or its file's beforeAll caused) contradicts the
// OpenAPI document: undocumented status or media type, or a JSON body off its schema (docs/api.md).
afterEach(() => {
  expect(takeResponseProblems(), 'responses that contradict the OpenAPI document').toEqual([]);
});
