import { describe, expect, it } from 'vitest';
import type { PermitPayload } from '../permits/permits.presenter.js';
import { permitRows, unrepresentable } from './region-rows.js';

function permit(p: Partial<PermitPayload>): PermitPayload {
  return {
    id: '1',
    region_id: '1',
    region_name: '广安区',
    code: 'C1',
    name: '许可',
    implementation_level: null,
    internal_contact: null,
    contact_info: null,
    visible: true,
    source_file_id: null,
    themes: [],
    theme: null,
    approval_departments: [],
    risk_count: 0,
    risks: [],
    created_at: '',
    updated_at: '',
    ...p,
  };
}

describe('export rows', () => {
  it('writes one row per risk with every permit cell, and one row for a permit without risks', () => {
    const risk = {
      id: '1',
      position: 0,
      risk_type: null,
      title: '标题',
      description: '说明\n第二行',
      legal_basis: null,
      consequence: null,
      prevention: null,
      level: '高',
    };
    const rows = permitRows(
      '广安区',
      permit({
        themes: [
          { id: '1', name: '开办餐饮店' },
          { id: '2', name: '开办网吧' },
        ],
        approval_departments: ['甲局', '乙局'],
        visible: false,
        risks: [risk, { ...risk, title: '只有标题', description: null, level: null }],
      }),
    );
    expect(rows).toEqual([
      {
        region: '广安区',
        themes: '开办餐饮店、开办网吧',
        permitName: '许可',
        permitCode: 'C1',
        implementationLevel: '',
        approvalDepartments: '甲局、乙局',
        internalContact: '',
        contactInfo: '',
        visible: '否',
        riskType: '',
        riskPoint: '标题\n说明\n第二行',
        legalBasis: '',
        consequence: '',
        prevention: '',
        level: '高',
      },
      expect.objectContaining({ permitName: '许可', riskPoint: '只有标题', level: '' }),
    ]);
    expect(permitRows('广安区', permit({ code: null }))).toEqual([expect.objectContaining({ permitCode: '', visible: '是' })]);
    expect(permitRows('广安区', permit({}))[0]).not.toHaveProperty('riskPoint');
  });

  it('names what would not read back unchanged', () => {
    expect(unrepresentable([permit({ themes: [{ id: '1', name: '开办餐饮店' }] })])).toEqual([]);
    expect(
      unrepresentable([
        permit({ name: '甲', themes: [{ id: '1', name: '餐饮/住宿' }] }),
        permit({ name: '乙', approval_departments: ['区局，科室'] }),
        permit({ name: '丙', code: null }),
        permit({ name: '丙', code: null }),
      ]),
    ).toEqual([
      '许可事项“甲”的主题名称含分隔符，重新导入时会被拆分：餐饮/住宿',
      '许可事项“乙”的审批部门名称含分隔符，重新导入时会被拆分：区局，科室',
      '2 个许可事项同名“丙”且没有事项编码，重新导入时会合并为一个',
    ]);
  });
});
