import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import {
  type FileProperties,
  FilePropertiesWarning,
  WITHOUT_PROPERTIES_INTENT,
} from './FilePropertiesWarning.tsx';

const render = (properties: FileProperties) => {
  const router = createMemoryRouter([
    { path: '/', element: createElement(FilePropertiesWarning, { properties }) },
  ]);
  return renderToStaticMarkup(createElement(RouterProvider, { router }));
};

const file = {
  fileId: 7,
  name: 'draft.pdf',
  mediaType: 'application/pdf',
  copy: false,
  properties: ['PDF document information: Author — Ada Authorname'],
  removable: true,
  problem: null,
};

describe('the double-anonymous warning about file properties', () => {
  it('lists what names a person and offers copies for reviewers', () => {
    const html = render({ round: 1, mode: 'double-anonymous', warn: true, files: [file] });
    expect(html).toContain('Author — Ada Authorname');
    expect(html).toContain(`value="${WITHOUT_PROPERTIES_INTENT}"`);
    expect(html).toContain('Send reviewers copies without these properties');
  });

  it('says why a file cannot be copied, without the button', () => {
    const problem = { code: 'encrypted' as const, message: 'This file is password-protected.' };
    const html = render({
      round: 1,
      mode: 'double-anonymous',
      warn: true,
      files: [{ ...file, properties: [], removable: false, problem }],
    });
    expect(html).toContain('This file is password-protected.');
    expect(html).not.toContain(WITHOUT_PROPERTIES_INTENT);
  });

  it('once copies are sent, says that reviewers get them', () => {
    const copy = { ...file, fileId: 8, name: 'draft-for-reviewers.pdf', copy: true, properties: [] };
    const html = render({ round: 1, mode: 'double-anonymous', warn: false, files: [copy] });
    expect(html).toContain('reviewers get a copy without the properties that named people');
    expect(html).toContain('draft-for-reviewers.pdf');
    expect(html).not.toContain(WITHOUT_PROPERTIES_INTENT);
  });

  it('shows nothing when there is nothing to warn about', () => {
    expect(render({ round: 1, mode: 'open', warn: false, files: [file] })).toBe('');
  });
});
