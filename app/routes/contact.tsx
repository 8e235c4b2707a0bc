import { useEffect, useRef } from 'react';
import { Form } from 'react-router';
import { LIMITS } from '../../common/limits.ts';
import { MESSAGES } from '../../common/messages.ts';
import { contactSchema } from '../../common/schemas.ts';
import { FormAlert, FormStatus } from '../components/FormAlert.tsx';
import { DraftOffer } from '../components/DraftOffer.tsx';
import { TextAreaField, TextField, fieldId } from '../components/FormField.tsx';
import { JournalPageLayout } from '../components/JournalPageLayout.tsx';
import { asClientError, readForm, validateForm } from '../lib/forms.server.ts';
import { retryAfterHeaders } from '../lib/headers.ts';
import { pageTitle } from '../lib/meta.ts';
import { clientError, replyDone, replyRefused } from '../lib/reply.server.ts';
import { useFormElementDraft } from '../lib/use-form-draft.ts';
import { readerLinks } from '../lib/reader-page.ts';
import type { Route } from './+types/contact';
import { useSubmittingTo } from '../lib/journal-href.ts';

export const links: Route.LinksFunction = readerLinks;

export const headers: Route.HeadersFunction = retryAfterHeaders;

export async function loader({ context }: Route.LoaderArgs) {
  const journal = await context.services.settings.journal();
  return {
    name: journal.name,
    email: journal.email,
    phone: journal.phone,
    publisher: journal.publisher,
    // The address without the publisher's name again, if it starts with it: the name is shown above it.
    address: journal.publisherAddress.startsWith(journal.publisher)
      ? journal.publisherAddress.slice(journal.publisher.length).replace(/^[\s,]+/, '')
      : journal.publisherAddress,
  };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [
  { title: pageTitle(matches, 'Contact') },
  {
    name: 'description',
    content: loaderData
      ? `Write to the editorial office of ${loaderData.name}: e-mail ${loaderData.email}, phone ${loaderData.phone}, or use the contact form.`
      : 'Contact the editorial office.',
  },
];

const FIELDS = ['name', 'email', 'message'] as const;
type Values = Record<(typeof FIELDS)[number], string>;

/** The page's form posts here (POST /contact with a form body; JSON bodies go to the API instead). */
const FORM = 'contact';

export async function action({ request, context }: Route.ActionArgs) {
  const read = await readForm(request);
  const values = Object.fromEntries(FIELDS.map((f) => [f, read.form.text(f)])) as Values;
  if (!read.ok) return replyRefused(FORM, read.refusal, values);
  const parsed = validateForm(contactSchema, values);
  if (!parsed.ok) return replyRefused(FORM, parsed.refusal, values);
  try {
    await context.services.contact.send(parsed.data, { ip: context.clientIp });
    return replyDone(FORM, MESSAGES.contactSuccess);
  } catch (err) {
    const refused = asClientError(err);
    // Too many messages (429) included: the reader is told the spec's failure message, and when to retry.
    if (refused) return replyRefused(FORM, refused, values, MESSAGES.contactFailure);
    context.services.log.error({ err }, 'contact message failed');
    return replyRefused(FORM, clientError(500, MESSAGES.contactFailure), values);
  }
}

export default function Contact({ loaderData, actionData }: Route.ComponentProps) {
  const sending = useSubmittingTo('/contact');
  const failure = actionData && !actionData.ok ? actionData : null;
  const errors = failure?.errors ?? {};
  const fieldLinks = Object.entries(errors).map(([name, message]) => ({ id: fieldId(name), message }));
  // A signed-in writer's message, kept if the session ends before it is sent and offered back afterwards.
  const formRef = useRef<HTMLFormElement>(null);
  const draft = useFormElementDraft('contact', formRef, FIELDS);
  const sent = actionData?.ok ? actionData.at : null;
  useEffect(() => {
    if (sent) draft.clear();
  }, [sent, draft.clear]);

  return (
    <JournalPageLayout
      title="Contact"
      lead="Questions about submissions, reviews or published articles? Write to the editorial office."
      className="contact-page"
    >
      <div className="contact-grid">
        <section aria-labelledby="contact-form-title" className="contact-form">
          <h2 id="contact-form-title">Send a message</h2>
          {actionData?.ok ? (
            <FormStatus>
              <p>{actionData.message}</p>
            </FormStatus>
          ) : null}
          {failure ? <FormAlert attempt={failure} message={failure.message} fieldLinks={fieldLinks} /> : null}
          <DraftOffer draft={draft} what="the contact form" />
          {/* A new key after each message sent: the form comes back empty. */}
          <Form
            method="post"
            action="/contact"
            className="form"
            ref={formRef}
            key={actionData?.ok ? actionData.at : 'form'}
          >
            <p className="field__hint">All fields are required.</p>
            <TextField
              name="name"
              label="Name"
              autoComplete="name"
              required
              maxLength={LIMITS.name}
              defaultValue={failure?.values.name}
              error={errors.name}
            />
            <TextField
              name="email"
              label="Email"
              type="email"
              autoComplete="email"
              spellCheck={false}
              required
              maxLength={LIMITS.email}
              defaultValue={failure?.values.email}
              error={errors.email}
            />
            <TextAreaField
              name="message"
              label="Message"
              required
              rows={7}
              maxLength={LIMITS.message}
              defaultValue={failure?.values.message}
              error={errors.message}
            />
            <button type="submit" className="button button--primary" disabled={sending}>
              {sending ? 'Sending…' : 'Send message'}
            </button>
          </Form>
        </section>

        <aside aria-labelledby="contact-details-title" className="contact-details">
          <h2 id="contact-details-title">Editorial office</h2>
          <dl className="contact-details__list">
            <div>
              <dt>E-mail</dt>
              <dd>
                <a href={`mailto:${loaderData.email}`}>{loaderData.email}</a>
              </dd>
            </div>
            <div>
              <dt>Phone</dt>
              <dd>
                <a href={`tel:${loaderData.phone.replace(/[^\d+]/g, '')}`}>{loaderData.phone}</a>
              </dd>
            </div>
            <div>
              <dt>Postal address</dt>
              <dd>
                <address>
                  {loaderData.publisher}
                  <br />
                  {loaderData.address}
                </address>
              </dd>
            </div>
          </dl>
        </aside>
      </div>
    </JournalPageLayout>
  );
}
