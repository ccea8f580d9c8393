import { ElMessage, ElMessageBox } from 'element-plus';

/** A yes/no confirmation; resolves true when confirmed. */
export async function confirmAction(message: string, title = '请确认', confirmText = '确定', danger = true): Promise<boolean> {
  try {
    await ElMessageBox.confirm(message, title, {
      type: danger ? 'warning' : 'info',
      confirmButtonText: confirmText,
      cancelButtonText: '取消',
      confirmButtonClass: danger ? 'el-button--danger' : undefined,
    });
    return true;
  } catch {
    return false;
  }
}

/** Asks for a line of text (e.g. a change summary); null when cancelled. */
export async function promptText(message: string, title: string, placeholder = '', required = false): Promise<string | null> {
  try {
    const { value } = await ElMessageBox.prompt(message, title, {
      confirmButtonText: '确定',
      cancelButtonText: '取消',
      inputPlaceholder: placeholder,
      inputValidator: (v: string) => !required || (v ?? '').trim() !== '' || '此项不能为空',
    });
    return (value ?? '').trim();
  } catch {
    return null;
  }
}

/**
 * A removal after a confirmation: the call, its success message, then the view read again. A
 * failed call shows the server's message (the API client) and leaves the view as it is.
 */
export async function confirmRemoval(message: string, title: string, remove: () => Promise<unknown>, done: string, reload: () => Promise<void>): Promise<void> {
  if (!(await confirmAction(message, title, '删除'))) return;
  await remove();
  ElMessage.success(done);
  await reload();
}
