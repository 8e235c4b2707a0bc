import { imageSize } from 'image-size';
import type { JournalLogo, JournalSettings } from '../../common/journal.ts';
import { JOURNAL_LOGO_MAX_BYTES, JOURNAL_LOGO_RULE } from '../../common/upload-rules.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import type { ChangeFeed } from '../cache/changes.ts';
import { SITE } from '../cache/dependencies.ts';
import type { Db, Tx } from '../db/client.ts';
import { notFound, onField, unprocessable } from '../errors.ts';
import type { FileService } from '../files/service.ts';
import { type RawUpload, checkUpload } from '../files/uploads.ts';
import { JOURNAL_KEY, type SettingsService } from '../settings/service.ts';

/** Smaller than this, a logo is a blur on the site's home; larger, it is a photograph, not a logo. */
const MIN_SIDE = 64;
const MAX_SIDE = 4000;

interface LogoDeps {
  db: Db;
  settings: SettingsService;
  files: FileService;
  audit: AuditService;
  changes?: Pick<ChangeFeed, 'publish'>;
}

/**
 * A journal's logo is one of its settings (decision 0062): read with them (no query of its own on any page),
 * written with them, and a change drops every kept page showing the journal (its header, its card on the
 * site's home).
 */
async function saveLogo(
  deps: LogoDeps,
  tx: Tx,
  actor: Actor,
  current: JournalSettings,
  logo: JournalLogo | null,
  details: Record<string, unknown>,
) {
  await deps.settings.set(tx, JOURNAL_KEY, { ...current, logo });
  await deps.audit.record(
    tx,
    actor,
    logo ? 'settings.journal.logo' : 'settings.journal.logo.remove',
    { type: 'content', id: JOURNAL_KEY },
    details,
  );
  await deps.changes?.publish(tx, [SITE]);
}

/**
 * Sets the journal at hand's logo: a PNG or JPEG (by its bytes) of at most 1 MB, 64 to 4,000 pixels a side,
 * stored as every upload is (content-addressed), and named in the journal's settings in the same transaction.
 */
export async function setJournalLogo(deps: LogoDeps, actor: Actor, upload: RawUpload): Promise<JournalLogo> {
  const checked = await checkUpload(upload, { ...JOURNAL_LOGO_RULE, maxBytes: JOURNAL_LOGO_MAX_BYTES });
  let size: { width?: number; height?: number };
  try {
    size = imageSize(checked.data);
  } catch {
    throw onField(
      unprocessable('The logo could not be read as an image: save it again as PNG or JPEG.'),
      'logo',
    );
  }
  const { width = 0, height = 0 } = size;
  if (Math.min(width, height) < MIN_SIDE || Math.max(width, height) > MAX_SIDE) {
    throw onField(
      unprocessable(
        `The logo is ${width} × ${height} pixels: give one of ${MIN_SIDE} to ${MAX_SIDE} pixels a side (a square of 400 is ideal).`,
      ),
      'logo',
    );
  }
  // Read before the transaction: on PGlite's one connection a read beside it would wait for it for ever.
  const current = await deps.settings.journal();
  return deps.files.withStoredFiles([checked], async (tx, [file]) => {
    const logo: JournalLogo = {
      fileId: file.id,
      sha256: file.sha256,
      mediaType: file.mediaType,
      width,
      height,
    };
    await saveLogo(deps, tx, actor, current, logo, { width, height, bytes: file.size });
    return logo;
  });
}

/** Removes the journal at hand's logo (its pages show the site's mark again); 404 when it has none. */
export async function removeJournalLogo(deps: LogoDeps, actor: Actor): Promise<void> {
  const current = await deps.settings.journal();
  if (!current.logo) throw notFound('This journal has no logo.');
  // The stored file stays (content-addressed, and the audit log names it); the settings no longer do.
  await deps.db.transaction((tx) => saveLogo(deps, tx, actor, current, null, {}));
}
