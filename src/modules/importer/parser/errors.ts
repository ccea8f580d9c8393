/** Why a whole workbook was refused before any sheet could be read. */
export type RejectReason = 'not_xlsx' | 'legacy_format' | 'too_large' | 'too_many_rows' | 'unreadable';

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
