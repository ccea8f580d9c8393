import type { SnapshotReader, SnapshotWriter } from './snapshot-codec.js';
import type { SearchDoc, SearchRisk } from './types.js';

/** A document's fields into a snapshot, in SearchDoc order. */
export function writeDoc(w: SnapshotWriter, doc: SearchDoc): void {
  w.str(doc.permitId);
  w.str(doc.regionId);
  w.str(doc.regionName);
  w.str(doc.name);
  w.str(doc.code);
  w.str(doc.implementationLevel);
  w.strs(doc.approvalDepartments);
  w.str(doc.internalContact);
  w.str(doc.contactInfo);
  w.int(doc.themes.length);
  for (const t of doc.themes) {
    w.str(t.id);
    w.str(t.name);
  }
  w.bool(doc.visible);
  w.int(doc.risks.length);
  for (const r of doc.risks) {
    w.str(r.id);
    w.str(r.title);
    w.str(r.description);
    w.str(r.legalBasis);
    w.str(r.consequence);
    w.str(r.prevention);
    w.str(r.level);
    w.str(r.riskType);
  }
}

/** A document as writeDoc wrote it. */
export function readDoc(r: SnapshotReader): SearchDoc {
  const permitId = r.text();
  const regionId = r.text();
  const regionName = r.text();
  const name = r.text();
  const code = r.str();
  const implementationLevel = r.str();
  const approvalDepartments = r.strs();
  const internalContact = r.str();
  const contactInfo = r.str();
  const themes = new Array<{ id: string; name: string }>(r.int());
  for (let i = 0; i < themes.length; i++) themes[i] = { id: r.text(), name: r.text() };
  const visible = r.bool();
  const risks = new Array<SearchRisk>(r.int());
  for (let i = 0; i < risks.length; i++) {
    risks[i] = {
      id: r.text(), title: r.text(), description: r.str(), legalBasis: r.str(),
      consequence: r.str(), prevention: r.str(), level: r.str(), riskType: r.str(),
    };
  }
  return { permitId, regionId, regionName, name, code, implementationLevel, approvalDepartments, internalContact, contactInfo, themes, visible, risks };
}
