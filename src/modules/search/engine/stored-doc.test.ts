import { describe, expect, it } from 'vitest';
import { SearchIndex } from './index.js';
import { SnapshotReader, SnapshotWriter } from './snapshot-codec.js';
import { StoredDoc } from './stored-doc.js';
import { testDoc } from './test-docs.js';

describe('a document as the index holds it', () => {
  const given = testDoc({ permitId: '7', name: '食品经营许可证核发', code: 'XK-1', themes: [{ id: '3', name: '餐饮' }] }, [
    '未经许可从事食品经营\n责令改正',
    '超范围经营',
  ]);
  given.risks[0].id = '120';
  given.risks[1].legalBasis = '《食品安全法》第三十五条';

  it('answers every field and risk as given, whether a risk id is a number or not, in copies and JSON too', () => {
    const index = SearchIndex.build([given]);
    const held = index.document('7')!;
    expect(held).toBeInstanceOf(StoredDoc);
    expect(held).toEqual(given);
    expect(held.risks.map((r) => r.id)).toEqual(['120', '7:r2']);
    expect({ ...held }).toEqual(given);
    expect(JSON.parse(JSON.stringify(held))).toEqual(given);
    expect(index.riskCount).toBe(2);
  });

  it('reads back from a snapshot as given', async () => {
    const w = new SnapshotWriter();
    await SearchIndex.build([given, testDoc({ permitId: '8', name: '药品经营许可' })]).save(w);
    const loaded = SearchIndex.load(SnapshotReader.of(Buffer.concat(await w.finish())));
    expect(loaded.document('7')).toEqual(given);
    expect(loaded.document('8')!.risks).toEqual([]);
  });

  it('is not changed by changes to the risks it answered', () => {
    const index = SearchIndex.build([given]);
    const risks = index.document('7')!.risks;
    risks[0].title = '改过的标题';
    risks.pop();
    expect(index.document('7')!.risks).toEqual(given.risks);
  });
});
