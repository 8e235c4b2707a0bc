import { ALGORITHMS, type Algorithm, BAGIT_TXT, type Bag, decodeManifestPath, digest } from './bagit.ts';

/**
 * The bag checker (decision 0065): what RFC 8493 asks of a complete and valid bag, checked strictly for the
 * bags this site makes and for any bag given to it. Returns the problems in words; none means valid.
 *
 * - `bagit.txt` is exactly "BagIt-Version: 1.0" and "Tag-File-Character-Encoding: UTF-8";
 * - `bag-info.txt` is `Label: value` lines (continuations indented), with Payload-Oxum right;
 * - a payload manifest (at least one of SHA-256 and SHA-512, each present one complete): every file under
 *   `data/` listed in every payload manifest, every listed file present with its checksum right;
 * - tag manifests: every file they list present with its checksum right; every tag file (outside `data/`,
 *   other than the tag manifests) listed in each of them — nothing in the bag that nothing vouches for.
 */
export function checkBag(bag: Bag): string[] {
  const problems: string[] = [];
  const text = (name: string) => bag.get(name)?.toString('utf8');

  const bagit = text('bagit.txt');
  if (bagit === undefined) problems.push('bagit.txt is missing.');
  else if (bagit !== BAGIT_TXT)
    problems.push('bagit.txt must be exactly "BagIt-Version: 1.0" and "Tag-File-Character-Encoding: UTF-8".');

  const info = text('bag-info.txt');
  const labels = info === undefined ? null : parseTagFile(info, problems);
  if (info === undefined) problems.push('bag-info.txt is missing.');

  const payload = [...bag.keys()].filter((n) => n.startsWith('data/'));
  if (!bag.has('data/') && payload.length === 0)
    problems.push('The payload folder data/ is empty or missing.');

  const manifests = ALGORITHMS.filter((a) => bag.has(`manifest-${a}.txt`));
  if (!manifests.length) problems.push('No payload manifest (manifest-sha256.txt or manifest-sha512.txt).');
  for (const a of manifests) {
    const listed = readManifest(bag, `manifest-${a}.txt`, a, problems);
    for (const name of listed) {
      if (!name.startsWith('data/'))
        problems.push(`manifest-${a}.txt lists ${JSON.stringify(name)}, which is not under data/.`);
    }
    for (const name of payload) {
      if (!listed.has(name)) problems.push(`${JSON.stringify(name)} is not listed in manifest-${a}.txt.`);
    }
  }

  const tagManifests = ALGORITHMS.filter((a) => bag.has(`tagmanifest-${a}.txt`));
  const tagFiles = [...bag.keys()].filter(
    (n) => !n.startsWith('data/') && !/^tagmanifest-[a-z0-9]+\.txt$/.test(n),
  );
  if (!tagManifests.length) {
    const unknown = tagFiles.filter(
      (n) => !['bagit.txt', 'bag-info.txt'].includes(n) && !/^manifest-/.test(n),
    );
    for (const n of unknown) problems.push(`${JSON.stringify(n)} is in the bag but in no manifest.`);
  }
  for (const a of tagManifests) {
    const listed = readManifest(bag, `tagmanifest-${a}.txt`, a, problems);
    for (const name of listed) {
      if (name.startsWith('data/'))
        problems.push(`tagmanifest-${a}.txt lists the payload file ${JSON.stringify(name)}.`);
    }
    for (const name of tagFiles) {
      if (!listed.has(name)) problems.push(`${JSON.stringify(name)} is not listed in tagmanifest-${a}.txt.`);
    }
  }
  for (const name of bag.keys()) {
    if (/^(tag)?manifest-/.test(name) && !ALGORITHMS.some((a) => name.endsWith(`-${a}.txt`)))
      problems.push(`${name}: only SHA-256 and SHA-512 manifests are read here.`);
  }

  const oxum = labels?.get('payload-oxum');
  if (labels && !oxum) problems.push('bag-info.txt has no Payload-Oxum.');
  if (oxum) {
    const octets = payload.reduce((n, name) => n + (bag.get(name)?.length ?? 0), 0);
    const actual = `${octets}.${payload.length}`;
    if (oxum.length !== 1 || oxum[0] !== actual)
      problems.push(`Payload-Oxum says ${oxum.join(', ')}, but the payload is ${actual} (octets.files).`);
  }
  return problems;
}

/** `Label: value` lines, a line starting with whitespace continuing the one before; labels by lower case. */
function parseTagFile(content: string, problems: string[]): Map<string, string[]> {
  const labels = new Map<string, string[]>();
  let last: string[] | null = null;
  const lines = content.split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (const [i, raw] of lines.entries()) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (/^[ \t]/.test(line) && last) {
      last[last.length - 1] += ` ${line.trim()}`;
      continue;
    }
    const m = /^([^:\s][^:]*?)\s*:\s(.*)$/.exec(line);
    if (!m) {
      problems.push(`bag-info.txt line ${i + 1} is not "Label: value".`);
      continue;
    }
    const key = m[1].toLowerCase();
    last = labels.get(key) ?? [];
    last.push(m[2].trim());
    labels.set(key, last);
  }
  return labels;
}

/** The files a manifest lists (each checked against its checksum here). */
function readManifest(bag: Bag, name: string, algorithm: Algorithm, problems: string[]): Set<string> {
  const listed = new Set<string>();
  const length = algorithm === 'sha256' ? 64 : 128;
  const lines = bag.get(name)!.toString('utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (const [i, raw] of lines.entries()) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const m = /^([0-9a-fA-F]+)[ \t]+(.+)$/.exec(line);
    if (!m || m[1].length !== length) {
      problems.push(`${name} line ${i + 1} is not "checksum path".`);
      continue;
    }
    const file = decodeManifestPath(m[2]);
    if (listed.has(file)) problems.push(`${name} lists ${JSON.stringify(file)} twice.`);
    listed.add(file);
    const data = bag.get(file);
    if (!data) problems.push(`${name} lists ${JSON.stringify(file)}, which is not in the bag.`);
    else if (digest(algorithm, data) !== m[1].toLowerCase())
      problems.push(`${JSON.stringify(file)} does not match its ${algorithm} checksum in ${name}.`);
  }
  return listed;
}
