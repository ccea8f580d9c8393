/**
 * Counts one XML tag in a part inflated chunk by chunk, without keeping the part: `<c` counts
 * cells only when the next byte ends the name (so `<col`, `<cfRule` are not cells); a tag may
 * straddle two chunks.
 */
/** Bytes that end an element name: whitespace, `>`, `/`. */
const NAME_END = new Set([0x20, 0x09, 0x0a, 0x0d, 0x3e, 0x2f]);

export class TagCounter {
  count = 0;
  private tail = Buffer.alloc(0);
  private readonly tag: Buffer;
  /** The tag and, for an open tag, the byte after it. */
  private readonly span: number;

  /** `open`: the name must be followed by whitespace, `>` or `/` (`<c`, `<si`); else the exact bytes (`</row>`). */
  constructor(
    tag: string,
    private readonly open: boolean,
  ) {
    this.tag = Buffer.from(tag);
    this.span = this.tag.length + (open ? 1 : 0);
  }

  add(chunk: Buffer): void {
    const text = this.tail.length > 0 ? Buffer.concat([this.tail, chunk]) : chunk;
    // A match starting at `undecided` or later cannot be judged yet: it is looked at again with the next chunk.
    const undecided = text.length - this.span + 1;
    for (let i = text.indexOf(this.tag); i >= 0 && i < undecided; i = text.indexOf(this.tag, i + this.tag.length)) {
      if (!this.open || NAME_END.has(text[i + this.tag.length])) this.count++;
    }
    this.tail = Buffer.from(text.subarray(Math.max(0, undecided)));
  }
}
