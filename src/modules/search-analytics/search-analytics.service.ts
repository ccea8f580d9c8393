import type { Static } from '@sinclair/typebox';
import ExcelJS from 'exceljs';
import type { AppContext } from '../../context.js';
import { badRequest } from '../../http/errors.js';
import { readInt, readString, type Input } from '../../http/readers.js';
import { CHANNELS } from '../query-log/query-log.js';
import { DAY_MS, dayText, serviceDay } from '../query-log/service-day.js';
import { findRegionByToken } from '../regions/regions.repository.js';
import { dailyCounts, logTotals, refinedQuestions, slowQuestions, topQuestions, type LogFilter } from './search-analytics.repository.js';
import type { SearchAnalytics } from './search-analytics.openapi.js';

/** The longest range asked for at once. */
const MAX_DAYS = 366;
/** Rows per list in the workbook export. */
export const EXPORT_ROWS = 1000;

export interface AnalyticsRequest {
  filter: LogFilter;
  from: string;
  to: string;
  limit: number;
}

/** Minutes from UTC as +08:00. */
function offsetText(minutes: number): string {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

function readDay(input: Input, name: string): number | undefined {
  const raw = readString(input, name);
  if (raw === undefined) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(raw) ? Date.parse(`${raw}T00:00:00Z`) : NaN;
  if (Number.isNaN(ms) || dayText(ms) !== raw) throw badRequest(`${name} 应为 YYYY-MM-DD 格式的日期`);
  return ms;
}

/**
 * The range, region, channel and list length asked for; a bad one is a 400 naming it. Days are
 * those of the service's time zone (UTC_OFFSET): a day's entries are those asked from its local
 * midnight to the next.
 */
export async function readAnalyticsRequest(ctx: AppContext, input: Input, defLimit: number, maxLimit: number): Promise<AnalyticsRequest> {
  const offset = ctx.config.utcOffsetMinutes * 60_000;
  const to = readDay(input, 'to') ?? serviceDay(ctx.now(), ctx.config.utcOffsetMinutes);
  const from = readDay(input, 'from') ?? to - (30 - 1) * DAY_MS;
  if (from > to) throw badRequest('开始日期不能晚于结束日期');
  if ((to - from) / DAY_MS + 1 > MAX_DAYS) throw badRequest(`时间范围最长 ${MAX_DAYS} 天`);
  const token = readString(input, 'region', 'region_id');
  const region = token === undefined ? null : await findRegionByToken(ctx.readDb, token);
  if (region === undefined) throw badRequest('区域不存在');
  const channel = readString(input, 'channel') ?? null;
  if (channel !== null && !(CHANNELS as readonly string[]).includes(channel)) throw badRequest('渠道只能是 page、console、assistant 或 api');
  return {
    filter: { fromIso: new Date(from - offset).toISOString(), toIso: new Date(to + DAY_MS - offset).toISOString(), regionId: region?.id ?? null, channel },
    from: dayText(from),
    to: dayText(to),
    limit: readInt(input, 'limit', { def: defLimit, min: 1, max: maxLimit }),
  };
}

/** The analytics of one request, every list computed by the database. */
export async function searchAnalytics(ctx: AppContext, req: AnalyticsRequest): Promise<Static<typeof SearchAnalytics>> {
  const db = ctx.readDb;
  const { filter: f, limit } = req;
  const [totals, top, noResult, refined, daily, slow] = [
    await logTotals(db, f),
    await topQuestions(db, f, limit, false),
    await topQuestions(db, f, limit, true),
    await refinedQuestions(db, f, limit, ctx.dbh.kind === 'postgres'),
    await dailyCounts(db, f, ctx.config.utcOffsetMinutes, ctx.dbh.kind === 'postgres'),
    await slowQuestions(db, f, limit),
  ];
  const days = new Map<string, Static<typeof SearchAnalytics>['daily'][number]>();
  for (let ms = Date.parse(`${req.from}T00:00:00Z`); ms <= Date.parse(`${req.to}T00:00:00Z`); ms += DAY_MS) {
    const day = dayText(ms);
    days.set(day, { day, total: 0, no_match: 0, channels: { page: 0, console: 0, assistant: 0, api: 0 } });
  }
  for (const d of daily) {
    const entry = days.get(d.day);
    if (!entry) continue;
    entry.total += d.count;
    entry.no_match += d.noMatch;
    if (d.channel in entry.channels) entry.channels[d.channel as keyof typeof entry.channels] += d.count;
  }
  const question = (q: Awaited<ReturnType<typeof topQuestions>>[number]) => ({
    query: q.query,
    count: q.count,
    askers: q.askers,
    no_match: q.noMatch,
    last_asked_at: q.lastAskedAt,
  });
  return {
    range: { from: req.from, to: req.to, utc_offset: offsetText(ctx.config.utcOffsetMinutes) },
    totals: {
      questions: totals.questions,
      askers: totals.askers,
      no_match: totals.noMatch,
      no_match_rate: totals.questions ? totals.noMatch / totals.questions : 0,
    },
    top: top.map(question),
    no_result: noResult.map(question),
    refined: refined.map((r) => ({ query: r.query, refined_to: r.refinedTo, count: r.count })),
    daily: [...days.values()],
    slow: slow.map((s) => ({ query: s.query, latency_ms: s.latency_us / 1000, asked_at: s.asked_at, result_count: s.result_count, channel: s.channel })),
  };
}

/** The analytics as a workbook: a sheet per list, headers in Chinese. */
export async function searchAnalyticsWorkbook(report: Static<typeof SearchAnalytics>): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const sheet = (name: string, headers: string[], rows: (string | number)[][]) => {
    const ws = wb.addWorksheet(name);
    ws.addRow(headers).font = { bold: true };
    for (const r of rows) ws.addRow(r);
    ws.columns.forEach((c, i) => (c.width = i === 0 || (name === '改写查询' && i === 1) ? 40 : 14));
  };
  const t = report.totals;
  sheet(
    '概况',
    ['开始日期', '结束日期', '查询次数', '提问人数（按天）', '无结果次数', '无结果比例'],
    [[report.range.from, report.range.to, t.questions, t.askers, t.no_match, Number(t.no_match_rate.toFixed(4))]],
  );
  const questions = (list: typeof report.top) => list.map((q) => [q.query, q.count, q.askers, q.no_match, q.last_asked_at]);
  sheet('热门查询', ['查询', '次数', '提问人数', '无结果次数', '最近一次'], questions(report.top));
  sheet('无结果查询', ['查询', '次数', '提问人数', '无结果次数', '最近一次'], questions(report.no_result));
  sheet(
    '改写查询',
    ['原查询', '一分钟内改问', '次数'],
    report.refined.map((r) => [r.query, r.refined_to, r.count]),
  );
  sheet(
    '每日数量',
    ['日期', '查询次数', '无结果次数', '公共页面', '检索调试台', '智能助手', '接口'],
    report.daily.map((d) => [d.day, d.total, d.no_match, d.channels.page, d.channels.console, d.channels.assistant, d.channels.api]),
  );
  sheet(
    '慢查询',
    ['查询', '耗时（毫秒）', '时间', '结果数', '渠道'],
    report.slow.map((s) => [s.query, s.latency_ms, s.asked_at, s.result_count, s.channel]),
  );
  return Buffer.from(await wb.xlsx.writeBuffer());
}
