export interface StreamMap {
  bytes: Buffer;
  sectorSize: number;
  sectors: number[];
}

export const END_OF_CHAIN = 0xfffffffe;

/** Enough of an OLE compound file (MS-CFB) to read streams and write into them in place (exported for tests). */
export class CompoundFile {
  private readonly shift: number;
  private readonly fat: number[] = [];
  private readonly directory: { name: string; type: number; start: number; size: number }[] = [];
  private miniStream: StreamMap | null = null;

  constructor(private readonly data: Buffer) {
    if (data.length < 512) throw new Error('Not a compound file');
    this.shift = data.readUInt16LE(0x1e);
    if (this.shift !== 9 && this.shift !== 12) throw new Error('Unsupported sector size');
    const fatSectors: number[] = [];
    for (let i = 0; i < 109; i++) {
      const sector = data.readUInt32LE(0x4c + i * 4);
      if (sector < END_OF_CHAIN - 2) fatSectors.push(sector);
    }
    let difat = data.readUInt32LE(0x44);
    const perSector = (1 << this.shift) / 4;
    for (let guard = 0; difat < END_OF_CHAIN - 2 && guard < this.sectorCount; guard++) {
      const at = this.offsetOf(difat);
      for (let i = 0; i < perSector - 1; i++) {
        const sector = data.readUInt32LE(at + i * 4);
        if (sector < END_OF_CHAIN - 2) fatSectors.push(sector);
      }
      difat = data.readUInt32LE(at + (perSector - 1) * 4);
    }
    for (const sector of fatSectors) {
      const at = this.offsetOf(sector);
      for (let i = 0; i < perSector; i++) this.fat.push(data.readUInt32LE(at + i * 4));
    }
    for (const at of this.chain(data.readUInt32LE(0x30))) {
      for (let e = 0; e < 1 << (this.shift - 7); e++) {
        const entry = at + e * 128;
        const nameLength = Math.min(data.readUInt16LE(entry + 0x40), 64);
        this.directory.push({
          name: data.toString('utf16le', entry, entry + Math.max(0, nameLength - 2)),
          type: data[entry + 0x42],
          start: data.readUInt32LE(entry + 0x74),
          size: data.readUInt32LE(entry + 0x78),
        });
      }
    }
  }

  private get sectorCount(): number {
    return Math.ceil(this.data.length / (1 << this.shift));
  }

  private offsetOf(sector: number): number {
    const at = (sector + 1) << this.shift;
    if (at + (1 << this.shift) > this.data.length) throw new Error('Sector out of bounds');
    return at;
  }

  /** The file offsets of a FAT chain's sectors; a loop or a broken chain is an error. */
  private chain(start: number): number[] {
    const offsets: number[] = [];
    for (let sector = start; sector !== END_OF_CHAIN; sector = this.fat[sector]) {
      if (sector >= this.fat.length || offsets.length > this.sectorCount)
        throw new Error('Broken sector chain');
      offsets.push(this.offsetOf(sector));
    }
    return offsets;
  }

  private gather(sectors: number[], sectorSize: number, size: number, source: Buffer): StreamMap {
    const bytes = Buffer.alloc(Math.min(size, sectors.length * sectorSize));
    sectors.forEach((at, i) => {
      source.copy(bytes, i * sectorSize, at, Math.min(at + sectorSize, at + bytes.length - i * sectorSize));
    });
    return { bytes, sectorSize, sectors };
  }

  /**
   * A stream of the root storage by name, or null (also when larger than `maxBytes`: property streams are
   * small). A stream is never larger than the file: its sectors are the file's.
   */
  stream(name: string, maxBytes = 1024 * 1024): StreamMap | null {
    const entry = this.directory.find((e) => e.type === 2 && e.name === name);
    if (!entry || entry.size > maxBytes || entry.size > this.data.length) return null;
    const cutoff = this.data.readUInt32LE(0x38);
    if (entry.size >= cutoff) {
      return this.gather(this.chain(entry.start), 1 << this.shift, entry.size, this.data);
    }
    const mini = this.mini();
    const miniShift = this.data.readUInt16LE(0x20);
    const miniFat = this.chain(this.data.readUInt32LE(0x3c)).flatMap((at) =>
      Array.from({ length: (1 << this.shift) / 4 }, (_, i) => this.data.readUInt32LE(at + i * 4)),
    );
    const sectors: number[] = [];
    for (let sector = entry.start; sector !== END_OF_CHAIN; sector = miniFat[sector]) {
      if (sector >= miniFat.length || sectors.length > miniFat.length)
        throw new Error('Broken mini sector chain');
      sectors.push(this.locate(mini, sector << miniShift));
    }
    return this.gather(sectors, 1 << miniShift, entry.size, this.data);
  }

  private mini(): StreamMap {
    if (!this.miniStream) {
      const root = this.directory.find((e) => e.type === 5);
      if (!root) throw new Error('No root entry');
      this.miniStream = {
        bytes: Buffer.alloc(0),
        sectorSize: 1 << this.shift,
        sectors: this.chain(root.start),
      };
    }
    return this.miniStream;
  }

  private locate(stream: StreamMap, offset: number): number {
    const at = stream.sectors[Math.floor(offset / stream.sectorSize)];
    if (at === undefined) throw new Error('Offset out of bounds');
    return at + (offset % stream.sectorSize);
  }

  /** Writes `bytes` at `offset` of a stream read by `stream()`, in the file (and in the stream's copy). */
  write(stream: StreamMap, offset: number, bytes: Buffer): void {
    for (let i = 0; i < bytes.length; i++) this.data[this.locate(stream, offset + i)] = bytes[i];
    bytes.copy(stream.bytes, offset);
  }
}
