/** Protected Word files made from the fixture paper, for tests (no such fixture ships in shared/). */
import { fixture } from '../testing/harness.ts';

/** What Word writes for a protected .docx: an OLE container with an "EncryptedPackage" stream (its name in UTF-16). */
export function encryptedDocx(): Buffer {
  const ole = Buffer.from(fixture('manuscript.doc').subarray(0, 2048));
  return Buffer.concat([ole, Buffer.from('EncryptedPackage', 'utf16le'), Buffer.alloc(512)]);
}

/** The legacy .doc with its File Information Block's "encrypted" flag set, as Word 97-2003 writes it. */
export function encryptedDoc(): Buffer {
  const data = Buffer.from(fixture('manuscript.doc'));
  for (let at = 512; at + 12 <= data.length; at += 512) {
    if (data.readUInt16LE(at) === 0xa5ec) {
      data.writeUInt16LE(data.readUInt16LE(at + 0x0a) | 0x0100, at + 0x0a);
      return data;
    }
  }
  throw new Error('no File Information Block found in manuscript.doc');
}
