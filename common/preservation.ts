import { z } from 'zod';

/**
 * Preservation (issue 25, decision 0065): the LOCKSS and CLOCKSS manifest pages a journal offers when its
 * admin switches them on, the addresses of the preservation crawlers that may fetch its PDFs without an
 * account, and the BagIt packages made of each issue.
 */
export const PRESERVATION_SYSTEMS = ['lockss', 'clockss'] as const;
export type PreservationSystem = (typeof PRESERVATION_SYSTEMS)[number];

/** The permission statement each system's crawler looks for on the manifest page, word for word. */
export const PERMISSION_STATEMENTS: Record<PreservationSystem, string> = {
  lockss: 'LOCKSS system has permission to collect, preserve, and serve this Archival Unit.',
  clockss: 'CLOCKSS system has permission to ingest, preserve, and serve this Archival Unit.',
};
export const SYSTEM_NAMES: Record<PreservationSystem, string> = { lockss: 'LOCKSS', clockss: 'CLOCKSS' };

/** The manifest page's address under the journal's (OJS's gateway plugin's, which the crawlers know). */
export const manifestPath = (system: PreservationSystem, year?: number) =>
  `/gateway/${system}${year === undefined ? '' : `?year=${year}`}`;

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** An IPv6 address as a URL host takes it (the same check in the browser and on the server). */
function isIpv6(text: string): boolean {
  if (!text.includes(':') || !/^[0-9a-fA-F:.]+$/.test(text)) return false;
  try {
    new URL(`http://[${text}]/`);
    return true;
  } catch {
    return false;
  }
}

/** An address (`192.0.2.7`, `2001:db8::7`) or a range in CIDR form (`192.0.2.0/24`, `2001:db8::/32`). */
export function addressOrRangeProblem(text: string): string | null {
  const [address, bits, ...rest] = text.split('/');
  const v4 = IPV4.test(address);
  if (rest.length || (!v4 && !isIpv6(address)))
    return `"${text}" is not an IP address or a range such as 192.0.2.0/24.`;
  if (bits === undefined) return null;
  const max = v4 ? 32 : 128;
  if (!/^\d{1,3}$/.test(bits) || Number(bits) > max)
    return `"${text}": a range's prefix length is a number from 0 to ${max}.`;
  return null;
}

const ADDRESS_HINT = 'one IP address or CIDR range per line, such as 192.0.2.0/24';

/** What is stored (settings key `preservation`) and what the admin edits: none is on until switched on. */
export const preservationSettingsSchema = z.object({
  lockss: z.boolean('Say whether the LOCKSS manifest pages are on (true or false).'),
  clockss: z.boolean('Say whether the CLOCKSS manifest pages are on (true or false).'),
  crawlerAddresses: z
    .array(z.string().trim().min(1), `List the preservation crawlers' addresses: ${ADDRESS_HINT}.`)
    .max(50, 'Give at most 50 addresses or ranges.')
    .superRefine((list, ctx) => {
      for (const item of list) {
        const problem = addressOrRangeProblem(item);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }
    }),
});
export type PreservationSettings = z.infer<typeof preservationSettingsSchema>;
export const PRESERVATION_DEFAULTS: PreservationSettings = {
  lockss: false,
  clockss: false,
  crawlerAddresses: [],
};

/** The settings page's textarea: one address or range per line, blank lines ignored. */
export const addressLines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);

/** One issue as the editor's archive list shows it, with its latest bag if one was made. */
export const issueBagSchema = z.object({
  issue_id: z.number().int(),
  volume_number: z.number().int(),
  issue_number: z.number().int(),
  year: z.number().int(),
  title: z.string(),
  published_articles: z.number().int(),
  bag: z
    .object({
      made_at: z.string(),
      size: z.number().int(),
      files: z.number().int(),
      payload_oxum: z.string(),
      sha256: z.string(),
      download: z.string(),
    })
    .nullable(),
});
export type IssueBag = z.infer<typeof issueBagSchema>;

export const preservationResponse = z.object({
  settings: preservationSettingsSchema,
  manifests: z.object({ lockss: z.string(), clockss: z.string() }),
  issues: z.array(issueBagSchema),
});
export type PreservationOverview = z.infer<typeof preservationResponse>;

/** A size in the "Bag-Size" way: "12.3 KB", "4.5 MB" (a person's reading of it; Payload-Oxum is exact). */
export function humanSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let n = bytes / 1000;
  let unit = 0;
  while (n >= 1000 && unit < units.length - 1) {
    n /= 1000;
    unit++;
  }
  return `${n.toFixed(n < 10 ? 2 : 1)} ${units[unit]}`;
}
