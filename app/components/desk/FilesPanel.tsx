import { CopyrightFormFile } from '../submission/CopyrightFormFile.tsx';
import { FilesByVersion } from '../submission/FilesByVersion.tsx';
import type { DeskSubmission } from './desk-loader.server.ts';

/** Every version's files, and the copyright form. */
export function FilesPanel({ submission: s }: { submission: DeskSubmission }) {
  return (
    <section className="panel" aria-labelledby="files-title">
      <h2 id="files-title">Files</h2>
      <FilesByVersion submissionId={s.id} files={s.files} />
      <CopyrightFormFile submissionId={s.id} form={s.copyrightForm} />
    </section>
  );
}
