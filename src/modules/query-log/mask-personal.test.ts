import { describe, expect, it } from 'vitest';
import { maskPersonalData } from './mask-personal.js';

describe('masking personal data in logged questions', () => {
  it('masks identity card numbers, old and new', () => {
    expect(maskPersonalData('身份证 51160219900101123X 能办吗')).toBe('身份证 [身份证号] 能办吗');
    expect(maskPersonalData('511602199001011234的营业执照')).toBe('[身份证号]的营业执照');
    expect(maskPersonalData('老身份证511602900101123')).toBe('老身份证[身份证号]');
  });

  it('masks mobile and landline numbers, with or without separators', () => {
    expect(maskPersonalData('我的电话13812345678请回电')).toBe('我的电话[手机号]请回电');
    expect(maskPersonalData('138 1234 5678')).toBe('[手机号]');
    expect(maskPersonalData('+86 13812345678')).toBe('[手机号]');
    expect(maskPersonalData('打0826-2345678问问')).toBe('打[电话号码]问问');
    expect(maskPersonalData('办公室 0826 2345678')).toBe('办公室 [电话号码]');
  });

  it('masks identity numbers typed in groups and bank card numbers', () => {
    expect(maskPersonalData('511602 19900101 1234 能办吗')).toBe('[身份证号] 能办吗');
    expect(maskPersonalData('卡号6222021234567890123')).toBe('卡号[银行卡号]');
    expect(maskPersonalData('6222 0212 3456 7890')).toBe('[银行卡号]');
  });

  it('masks e-mail addresses', () => {
    expect(maskPersonalData('发到 zhang.san@example.com 吧')).toBe('发到 [邮箱] 吧');
  });

  it('reads full-width digits as digits and leaves the text between to the given normalisation', () => {
    expect(maskPersonalData('电话１３８１２３４５６７８')).toBe('电话[手机号]');
    expect(maskPersonalData('問：13812345678！', (s) => s.replace(/[:!]/g, ' '))).toBe('問 [手机号] ');
  });

  it('leaves permit codes, years, amounts and ordinary questions alone', () => {
    for (const q of ['511A0005200004', '2024年食品经营许可', '罚款5000元', '罚款5000000元', '20240101 到期', '开奶茶店要办什么证', 'spjy', '第3条']) {
      expect(maskPersonalData(q)).toBe(q);
    }
  });
});
