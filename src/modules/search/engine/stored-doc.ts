import type { SnapshotReader, SnapshotWriter } from './snapshot-codec.js';
import type { SearchDoc, SearchRisk } from './types.js';

/** A risk's fields in the order a stored document packs them. */
const RISK_FIELDS = [
  'id',
  'title',
  'description',
  'legalBasis',
  'consequence',
  'prevention',
  'level',
  'riskType',
] as const satisfies readonly (keyof SearchRisk)[];
const WIDTH = RISK_FIELDS.length;
// Every field of a risk is packed: this fails to compile when SearchRisk gains one.
const packsEveryField: Exclude<keyof SearchRisk, (typeof RISK_FIELDS)[number]> extends never ? true : never = true;
void packsEveryField;

/** A risk id as the database writes them is held as a small integer rather than a string of its own. */
const SMALL_ID = /^(?:0|[1-9]\d{0,8})$/;

type Cell = string | number | null;

const unpack = (cells: readonly Cell[]): SearchRisk[] => {
  const risks = new Array<SearchRisk>(cells.length / WIDTH);
  for (let i = 0, k = 0; i < risks.length; i++, k += WIDTH) {
    risks[i] = {
      id: String(cells[k]),
      title: cells[k + 1] as string,
      description: cells[k + 2] as string | null,
      legalBasis: cells[k + 3] as string | null,
      consequence: cells[k + 4] as string | null,
      prevention: cells[k + 5] as string | null,
      level: cells[k + 6] as string | null,
      riskType: cells[k + 7] as string | null,
    };
  }
  return risks;
};

/**
 * A document as the index holds it: its risks packed into one array of their fields rather than
 * an object each (a large catalogue holds millions), answered as SearchRisk objects, made anew at
 * each read of `risks`. `risks` is an own enumerable property, so a copy, a comparison or JSON of
 * the document holds them as of a plain SearchDoc.
 */
export class StoredDoc implements SearchDoc {
  readonly permitId: string;
  readonly regionId: string;
  readonly regionName: string;
  readonly name: string;
  readonly code: string | null;
  readonly implementationLevel: string | null;
  readonly approvalDepartments: string[];
  readonly internalContact: string | null;
  readonly contactInfo: string | null;
  readonly themes: { id: string; name: string }[];
  readonly visible: boolean;
  declare readonly risks: SearchRisk[];
  readonly #cells: Cell[];

  // One accessor for every document (the engine shares it: no memory per document).
  static readonly #RISKS: PropertyDescriptor = {
    enumerable: true,
    get(this: StoredDoc) {
      return unpack(this.#cells);
    },
  };

  private constructor(doc: Omit<SearchDoc, 'risks'>, cells: Cell[]) {
    this.permitId = doc.permitId;
    this.regionId = doc.regionId;
    this.regionName = doc.regionName;
    this.name = doc.name;
    this.code = doc.code;
    this.implementationLevel = doc.implementationLevel;
    this.approvalDepartments = doc.approvalDepartments;
    this.internalContact = doc.internalContact;
    this.contactInfo = doc.contactInfo;
    this.themes = doc.themes;
    this.visible = doc.visible;
    this.#cells = cells;
    Object.defineProperty(this, 'risks', StoredDoc.#RISKS);
  }

  /** The document as the index holds it (itself when it already is). */
  static of(doc: SearchDoc): StoredDoc {
    if (doc instanceof StoredDoc) return doc;
    const cells = new Array<Cell>(doc.risks.length * WIDTH);
    let k = 0;
    // In RISK_FIELDS order, written out: a full build packs a million risks.
    for (const r of doc.risks) {
      cells[k++] = SMALL_ID.test(r.id) ? Number(r.id) : r.id;
      cells[k++] = r.title;
      cells[k++] = r.description;
      cells[k++] = r.legalBasis;
      cells[k++] = r.consequence;
      cells[k++] = r.prevention;
      cells[k++] = r.level;
      cells[k++] = r.riskType;
    }
    return new StoredDoc(doc, cells);
  }

  /** Into a snapshot: the fields in SearchDoc order, then the risks' cells (a numeric id as an integer). */
  save(w: SnapshotWriter): void {
    w.str(this.permitId);
    w.str(this.regionId);
    w.str(this.regionName);
    w.str(this.name);
    w.str(this.code);
    w.str(this.implementationLevel);
    w.strs(this.approvalDepartments);
    w.str(this.internalContact);
    w.str(this.contactInfo);
    w.int(this.themes.length);
    for (const t of this.themes) {
      w.str(t.id);
      w.str(t.name);
    }
    w.bool(this.visible);
    const cells = this.#cells;
    w.int(cells.length / WIDTH);
    for (let k = 0; k < cells.length; k += WIDTH) {
      const id = cells[k];
      if (typeof id === 'number') w.int(id + 1);
      else {
        w.int(0);
        w.str(id);
      }
      for (let f = 1; f < WIDTH; f++) w.str(cells[k + f] as string | null);
    }
  }

  /** A document as save() wrote it. */
  static load(r: SnapshotReader): StoredDoc {
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
    const cells = new Array<Cell>(r.int() * WIDTH);
    for (let k = 0; k < cells.length; k += WIDTH) {
      const id = r.int();
      cells[k] = id > 0 ? id - 1 : r.text();
      cells[k + 1] = r.text();
      for (let f = 2; f < WIDTH; f++) cells[k + f] = r.str();
    }
    return new StoredDoc(
      { permitId, regionId, regionName, name, code, implementationLevel, approvalDepartments, internalContact, contactInfo, themes, visible },
      cells,
    );
  }

  /** A plain copy, its risks made once (for a reader that reads them more than once). */
  toSearchDoc(): SearchDoc {
    const { permitId, regionId, regionName, name, code, implementationLevel, approvalDepartments, internalContact, contactInfo, themes, visible } = this;
    return {
      permitId,
      regionId,
      regionName,
      name,
      code,
      implementationLevel,
      approvalDepartments,
      internalContact,
      contactInfo,
      themes,
      visible,
      risks: unpack(this.#cells),
    };
  }

  get riskCount(): number {
    return this.#cells.length / WIDTH;
  }
}
