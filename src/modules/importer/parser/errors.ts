/** Why a whole workbook was refused before any sheet could be read. */
export type RejectReason =
  'not_xlsx' | 'legacy_format' | 'too_large' | 'too_many_rows' | 'too_many_cells' | 'too_many_shared_strings' | 'out_of_memory' | 'unreadable';

export const NOT_A_WORKBOOK_MESSAGE = '文件不是有效的 Excel 工作簿，无法解析';

/** A workbook that cannot be read at all; the upload route answers it with 400 and the message. */
export class WorkbookRejected extends Error {
  readonly reason: RejectReason;

  constructor(message: string, reason: RejectReason) {
    super(message);
    this.name = 'WorkbookRejected';
    this.reason = reason;
  }
}

export function tooManyRows(limit: number): WorkbookRejected {
  return new WorkbookRejected(`工作簿行数超过上限（每个工作簿最多 ${limit} 行），已拒绝`, 'too_many_rows');
}

export function tooManyCells(limit: number): WorkbookRejected {
  return new WorkbookRejected(`工作簿单元格数超过上限（每个工作簿最多 ${limit} 个单元格），已拒绝`, 'too_many_cells');
}

/** The shared strings are the workbook's distinct texts: what a clerk knows them as. */
export function tooManySharedStrings(limit: number): WorkbookRejected {
  return new WorkbookRejected(`工作簿中不重复的文本超过上限（每个工作簿最多 ${limit} 条），已拒绝`, 'too_many_shared_strings');
}

/** A workbook that passed every count and still filled the parse's memory (parse-in-worker.ts). */
export const OUT_OF_MEMORY_MESSAGE = '工作簿内容过多，解析时超出内存上限，已拒绝；请拆分后分批上传';
