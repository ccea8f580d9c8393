import type { Risk } from '../shared/types';

/** Risks as people read them: the most serious first (高, 中, 低, then unrated), else in catalogue order. */
const ORDER: Record<string, number> = { 高: 0, 中: 1, 低: 2 };

export const byLevel = (risks: readonly Risk[]): Risk[] => [...risks].sort((a, b) => (ORDER[a.level ?? ''] ?? 3) - (ORDER[b.level ?? ''] ?? 3));

export function levelClass(level: string | null): string {
  return ({ 高: 'level-high', 中: 'level-mid', 低: 'level-low' } as Record<string, string>)[level ?? ''] ?? 'level-none';
}

export const levelText = (level: string | null): string => (level ? `${level}风险` : '未定级');
