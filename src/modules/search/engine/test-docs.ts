import type { SearchDoc, SearchRisk } from './types.js';

/** A small, readable document for the engine's tests (only what a test sets differs). */
export function testDoc(over: Partial<SearchDoc> & { permitId: string; name: string }, riskTexts: string[] = []): SearchDoc {
  const risks: SearchRisk[] = riskTexts.map((text, i) => ({
    id: `${over.permitId}:r${i + 1}`,
    title: text.split('\n')[0],
    description: text.split('\n')[1] ?? null,
    legalBasis: null,
    consequence: null,
    prevention: null,
    level: '中',
    riskType: null,
  }));
  return {
    regionId: 'r1',
    regionName: '甲区',
    code: null,
    implementationLevel: '县级',
    approvalDepartments: [],
    internalContact: null,
    contactInfo: null,
    themes: [],
    visible: true,
    risks,
    ...over,
  };
}
