import type { JournalSettings } from '../../common/journal.ts';
import { DC_NAMESPACE, OAI_DC_NAMESPACE, OAI_DC_SCHEMA, oaiDc } from './dublin-core.ts';
import { jatsArticle } from './jats.ts';
import {
  afterUntil,
  issueSetSpec,
  journalSetSpec,
  type ListVerb,
  METADATA_FORMATS,
  type MetadataPrefix,
  OAI_DELETED_RECORD,
  OAI_GRANULARITY,
  OAI_IDENTIFIER_NAMESPACE,
  OAI_NAMESPACE,
  OAI_SCHEMA,
  OaiError,
  type OaiErrorCode,
  oaiDatestamp,
  parseOaiDate,
  parseSetSpec,
  parseSiteSetSpec,
  SET_SPEC_SYNTAX,
  type TokenPayload,
  Tokens,
  VERBS,
  volumeSetSpec,
  XSI,
} from './oai-protocol.ts';
import type { PlaceFilter, Selection, Work, WorkReader } from './works.ts';
import { el, renderXml, type XmlChild, type XmlElement } from './xml.ts';

/**
 * OAI-PMH 2.0 (https://www.openarchives.org/OAI/openarchivesprotocol.html): the six verbs over the
 * published articles, as a pure request → XML function (the route only reads the arguments and sends the
 * text). Choices, declared in Identify and kept everywhere:
 *
 * - identifiers `oai:{host}:article/{id}`, `host` being the site's host name whichever journal answers (article
 *   ids are the site's, so they never clash; an identifier outlives a journal's move to a path or a domain:
 *   decision 0057); datestamps are the article's `updated_at`, in UTC, at seconds
 *   granularity (`YYYY-MM-DDThh:mm:ssZ`); `from`/`until` also take days (`YYYY-MM-DD`), both the same way;
 * - deletedRecord `transient`: an unpublished (withdrawn) article stays in the lists as a header with
 *   `status="deleted"` and no metadata, so harvesters learn that it went; we do not promise to keep such
 *   headers forever;
 * - sets: `volume:{n}` and `volume:{n}:issue:{m}` (numbers as printed), a hierarchy: a record in an issue
 *   is in its volume too, and its header names both; the site-wide repository puts the same under each
 *   journal, `journal:{id}`, `journal:{id}:volume:{n}`, `journal:{id}:volume:{n}:issue:{m}`;
 * - one repository per journal, at the journal's address, and one for the whole site (its journals as
 *   sets), each answering with the same identifiers; one journal's repository knows none of another's
 *   records, and a resumption token of one is refused by another (each signs with a key of its own).
 * - paging: stateless resumption tokens (the query and the last id seen, signed with the server's secret)
 *   that never expire; records are listed in id order, so pages neither repeat nor skip a record while
 *   the catalogue changes. `completeListSize` and `cursor` are on every token.
 */

// ---- The repository -------------------------------------------------------------------------------

/** Who answers, as Identify says it. */
export interface OaiIdentity {
  repositoryName: string;
  adminEmail: string;
  /** The year its records begin, when it has none yet (the earliest datestamp then). */
  startYear: number;
}

export interface OaiDeps {
  works: WorkReader;
  identity: () => Promise<OaiIdentity>;
  /** The settings of the journal a record is of: its metadata names that journal. */
  journal: (journalId: number) => Promise<JournalSettings>;
  /** The repository's address (its baseURL: the journal's address, or the site's, and `/oai`). */
  address: string;
  /** The namespace part of identifiers: the site's host name, for every repository of the site. */
  host: string;
  /** The site-wide repository: its journals (each a set). Absent for one journal's repository. */
  journals?: () => { id: number; title: string }[];
  /** Signs resumption tokens: a key of each repository's own. */
  secret: string;
  /** Records per ListIdentifiers/ListRecords response. */
  pageSize: number;
  now?: () => Date;
  /** The JATS body and back of these articles' full texts, for the `jats` format (issue 16). */
  fullTexts?: (articleIds: number[]) => Promise<Map<number, XmlElement[]>>;
}

export class OaiRepository {
  private readonly tokens: Tokens;
  readonly baseUrl: string;
  /** The namespace part of our identifiers: the public host name. */
  readonly host: string;

  constructor(private readonly deps: OaiDeps) {
    if (!Number.isInteger(deps.pageSize) || deps.pageSize < 1)
      throw new Error('OAI page size must be a positive integer');
    this.tokens = new Tokens(deps.secret);
    this.baseUrl = deps.address;
    this.host = deps.host;
  }

  identifier(articleId: number): string {
    return `oai:${this.host}:article/${articleId}`;
  }

  /** The article id an identifier names, or null when it is not one of ours. */
  articleIdOf(identifier: string): number | null {
    const prefix = `oai:${this.host}:article/`;
    if (!identifier.startsWith(prefix)) return null;
    const rest = identifier.slice(prefix.length);
    return /^[1-9]\d{0,9}$/.test(rest) && Number(rest) <= 2_147_483_647 ? Number(rest) : null;
  }

  /** Answers one request, given its arguments (query string or form body), as the XML document. */
  async respond(args: URLSearchParams): Promise<string> {
    const values = new Map<string, string[]>();
    for (const [k, v] of args) values.set(k, [...(values.get(k) ?? []), v]);

    const verbs = values.get('verb') ?? [];
    const spec = verbs.length === 1 ? VERBS[verbs[0]] : undefined;
    if (!spec || !Object.hasOwn(VERBS, verbs[0])) {
      const message =
        verbs.length === 0
          ? 'The verb argument is missing.'
          : verbs.length > 1
            ? 'The verb argument is repeated.'
            : `"${verbs[0]}" is not an OAI-PMH verb.`;
      return this.document(null, [this.error('badVerb', message)]);
    }
    const verb = verbs[0];

    const problems: string[] = [];
    const allowed = new Set([
      ...spec.required,
      ...spec.optional,
      ...(spec.exclusive ? [spec.exclusive] : []),
    ]);
    for (const [k, v] of values) {
      if (k === 'verb') continue;
      if (!allowed.has(k)) problems.push(`"${k}" is not an argument of ${verb}.`);
      else if (v.length > 1) problems.push(`The argument "${k}" is repeated.`);
      else if (v[0] === '') problems.push(`The argument "${k}" is empty.`);
    }
    const exclusive = spec.exclusive && values.has(spec.exclusive);
    if (exclusive && values.size > 2) {
      problems.push(`${spec.exclusive} is an exclusive argument: send it with the verb alone.`);
    }
    if (!exclusive) {
      for (const r of spec.required) if (!values.has(r)) problems.push(`${verb} needs the argument "${r}".`);
    }
    if (problems.length) {
      return this.document(
        null,
        problems.map((p) => this.error('badArgument', p)),
      );
    }

    const one = (k: string) => values.get(k)?.[0];
    const requestAttrs: Record<string, string> = { verb };
    for (const [k, v] of values) requestAttrs[k] = v[0];

    try {
      let body: XmlElement;
      switch (verb) {
        case 'Identify':
          body = await this.identify();
          break;
        case 'ListMetadataFormats':
          body = await this.listMetadataFormats(one('identifier'));
          break;
        case 'ListSets':
          body = await this.listSets(one('resumptionToken'));
          break;
        case 'GetRecord':
          body = await this.getRecord(one('identifier')!, one('metadataPrefix')!);
          break;
        default:
          body = await this.list(verb as ListVerb, {
            token: one('resumptionToken'),
            metadataPrefix: one('metadataPrefix'),
            from: one('from'),
            until: one('until'),
            set: one('set'),
          });
      }
      return this.document(requestAttrs, [body]);
    } catch (err) {
      if (!(err instanceof OaiError)) throw err;
      // badArgument found late (dates, sets) still leaves the request element bare, as the protocol says.
      const attrs = err.code === 'badArgument' ? null : requestAttrs;
      return this.document(attrs, [this.error(err.code, err.message)]);
    }
  }

  private error(code: OaiErrorCode, message: string) {
    return el('error', { code }, message);
  }

  private document(requestAttrs: Record<string, string> | null, content: XmlChild[]): string {
    const now = this.deps.now?.() ?? new Date();
    return renderXml(
      el(
        'OAI-PMH',
        { xmlns: OAI_NAMESPACE, 'xmlns:xsi': XSI, 'xsi:schemaLocation': `${OAI_NAMESPACE} ${OAI_SCHEMA}` },
        el('responseDate', null, oaiDatestamp(now)),
        el('request', requestAttrs, this.baseUrl),
        content,
      ),
    );
  }

  // ---- Verbs --------------------------------------------------------------------------------------

  private async identify(): Promise<XmlElement> {
    const identity = await this.deps.identity();
    const earliest = await this.deps.works.earliestChange(true);
    const earliestDatestamp = earliest ? oaiDatestamp(earliest) : `${identity.startYear}-01-01T00:00:00Z`;
    const sampleHost = /^[a-zA-Z][a-zA-Z0-9-]*(\.[a-zA-Z][a-zA-Z0-9-]*)+$/.test(this.host);
    return el(
      'Identify',
      null,
      el('repositoryName', null, identity.repositoryName),
      el('baseURL', null, this.baseUrl),
      el('protocolVersion', null, '2.0'),
      el('adminEmail', null, identity.adminEmail),
      el('earliestDatestamp', null, earliestDatestamp),
      el('deletedRecord', null, OAI_DELETED_RECORD),
      el('granularity', null, OAI_GRANULARITY),
      // The oai-identifier description is only valid for a host name with a dot (not "localhost").
      sampleHost
        ? el(
            'description',
            null,
            el(
              'oai-identifier',
              {
                xmlns: OAI_IDENTIFIER_NAMESPACE,
                'xsi:schemaLocation': `${OAI_IDENTIFIER_NAMESPACE} http://www.openarchives.org/OAI/2.0/oai-identifier.xsd`,
              },
              el('scheme', null, 'oai'),
              el('repositoryIdentifier', null, this.host),
              el('delimiter', null, ':'),
              el('sampleIdentifier', null, this.identifier(1)),
            ),
          )
        : null,
    );
  }

  private async listMetadataFormats(identifier: string | undefined): Promise<XmlElement> {
    if (identifier !== undefined) {
      const work = await this.findWork(identifier);
      // A withdrawn article is only a deleted header now: no format can carry its metadata.
      if (work.status !== 'published') {
        throw new OaiError(
          'noMetadataFormats',
          `${identifier} has been withdrawn: no metadata is available for it.`,
        );
      }
    }
    return el(
      'ListMetadataFormats',
      null,
      METADATA_FORMATS.map((f) =>
        el(
          'metadataFormat',
          null,
          el('metadataPrefix', null, f.prefix),
          el('schema', null, f.schema),
          el('metadataNamespace', null, f.namespace),
        ),
      ),
    );
  }

  private async listSets(token: string | undefined): Promise<XmlElement> {
    if (token !== undefined) {
      throw new OaiError(
        'badResumptionToken',
        'The set list is never split: this resumption token is not ours.',
      );
    }
    const tree = await this.deps.works.volumesWithIssues();
    const site = this.deps.journals?.();
    if (site) {
      // The site's sets: each journal, then its volumes and issues under it.
      if (!site.length) throw new OaiError('noSetHierarchy', 'The site has no journals yet, so no sets.');
      return el(
        'ListSets',
        null,
        site.map((journal) => [
          el(
            'set',
            null,
            el('setSpec', null, journalSetSpec(journal.id)),
            el('setName', null, journal.title),
          ),
          this.volumeSets(
            tree.filter(({ volume }) => volume.journalId === journal.id),
            `${journalSetSpec(journal.id)}:`,
            `${journal.title}: `,
          ),
        ]),
      );
    }
    if (!tree.length) throw new OaiError('noSetHierarchy', 'The journal has no volumes yet, so no sets.');
    return el('ListSets', null, this.volumeSets(tree, '', ''));
  }

  /** The sets of volumes and their issues (under a journal's set, in the site's repository). */
  private volumeSets(
    tree: Awaited<ReturnType<WorkReader['volumesWithIssues']>>,
    specPrefix: string,
    namePrefix: string,
  ): XmlElement[] {
    return tree.flatMap(({ volume, issues }) => [
      el(
        'set',
        null,
        el('setSpec', null, specPrefix + volumeSetSpec(volume.volumeNumber)),
        el('setName', null, `${namePrefix}Volume ${volume.volumeNumber} (${volume.year})`),
      ),
      ...issues.map((issue) =>
        el(
          'set',
          null,
          el('setSpec', null, specPrefix + issueSetSpec(volume.volumeNumber, issue.issueNumber)),
          el(
            'setName',
            null,
            `${namePrefix}Volume ${volume.volumeNumber}, Issue ${issue.issueNumber}: ${issue.title}`,
          ),
          issue.description.trim()
            ? el(
                'setDescription',
                null,
                el(
                  'oai_dc:dc',
                  {
                    'xmlns:oai_dc': OAI_DC_NAMESPACE,
                    'xmlns:dc': DC_NAMESPACE,
                    'xsi:schemaLocation': `${OAI_DC_NAMESPACE} ${OAI_DC_SCHEMA}`,
                  },
                  el('dc:description', null, issue.description.trim()),
                ),
              )
            : null,
        ),
      ),
    ]);
  }

  private async getRecord(identifier: string, prefix: string): Promise<XmlElement> {
    const format = this.format(prefix);
    const work = await this.findWork(identifier);
    const bodies = await this.bodies([work], format);
    return el('GetRecord', null, this.record(work, format, await this.deps.journal(work.journalId), bodies));
  }

  private async list(
    verb: ListVerb,
    args: { token?: string; metadataPrefix?: string; from?: string; until?: string; set?: string },
  ): Promise<XmlElement> {
    let query: TokenPayload;
    if (args.token !== undefined) {
      const decoded = this.tokens.decode(args.token);
      if (!decoded || decoded.verb !== verb) {
        throw new OaiError(
          'badResumptionToken',
          'The resumption token is invalid (or belongs to another verb).',
        );
      }
      query = decoded;
    } else {
      query = {
        v: 1,
        verb,
        m: this.format(args.metadataPrefix!),
        ...(args.set !== undefined ? { s: args.set } : {}),
        ...(args.from !== undefined ? { f: args.from } : {}),
        ...(args.until !== undefined ? { u: args.until } : {}),
        a: 0,
        c: 0,
      };
    }
    const selection = await this.selection(query, args.token !== undefined);
    const { works, more } = await this.deps.works.selectPage(selection, query.a, this.deps.pageSize);
    if (!works.length && query.c === 0) {
      throw new OaiError('noRecordsMatch', 'No records match these arguments.');
    }
    const total = await this.deps.works.selectCount(selection);
    const tokenAttrs = { completeListSize: String(total), cursor: String(query.c) };
    let token: XmlElement | null = null;
    if (more) {
      const next = this.tokens.encode({ ...query, a: works[works.length - 1].id, c: query.c + works.length });
      token = el('resumptionToken', tokenAttrs, next);
    } else if (query.c > 0) {
      // The last part of a split list carries an empty token.
      token = el('resumptionToken', tokenAttrs);
    }
    // Each record's metadata names its own journal (one journal here, any of the site's in its repository).
    const settings = new Map<number, JournalSettings>();
    if (verb === 'ListRecords')
      for (const id of new Set(works.map((w) => w.journalId))) settings.set(id, await this.deps.journal(id));
    const bodies =
      verb === 'ListRecords' ? await this.bodies(works, query.m) : new Map<number, XmlElement[]>();
    return el(
      verb,
      null,
      verb === 'ListRecords'
        ? works.map((w) => this.record(w, query.m, settings.get(w.journalId)!, bodies))
        : works.map((w) => this.header(w)),
      token,
    );
  }

  // ---- Helpers ------------------------------------------------------------------------------------

  private format(prefix: string): MetadataPrefix {
    const f = METADATA_FORMATS.find((x) => x.prefix === prefix);
    if (!f) {
      throw new OaiError(
        'cannotDisseminateFormat',
        `"${prefix}" is not a metadata format of this repository (${METADATA_FORMATS.map((x) => x.prefix).join(', ')}).`,
      );
    }
    return f.prefix;
  }

  private async findWork(identifier: string): Promise<Work> {
    const id = this.articleIdOf(identifier);
    const work = id === null ? null : await this.deps.works.work(id);
    if (!work) throw new OaiError('idDoesNotExist', `${identifier} is not an identifier of this repository.`);
    return work;
  }

  /** The database selection a list request stands for; throws the protocol's errors for bad arguments. */
  private async selection(q: TokenPayload, fromToken: boolean): Promise<Selection> {
    // Inside a token the arguments were checked when it was issued; failing now means it was tampered with.
    const fail = (message: string) =>
      new OaiError(
        fromToken ? 'badResumptionToken' : 'badArgument',
        fromToken ? 'The resumption token is invalid.' : message,
      );
    const from = q.f !== undefined ? parseOaiDate(q.f) : undefined;
    const until = q.u !== undefined ? parseOaiDate(q.u) : undefined;
    if (from === null)
      throw fail(`from "${q.f}" is not a date in the form YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ.`);
    if (until === null)
      throw fail(`until "${q.u}" is not a date in the form YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ.`);
    if (from && until && from.granularity !== until.granularity) {
      throw fail('from and until must have the same granularity.');
    }
    if (from && until && from.date > until.date) throw fail('from is later than until.');
    let place: PlaceFilter | undefined;
    let journal: number | undefined;
    if (q.s !== undefined) {
      if (!SET_SPEC_SYNTAX.test(q.s)) throw fail(`"${q.s}" is not a setSpec.`);
      const site = this.deps.journals?.();
      if (site) {
        if (!site.length) throw new OaiError('noSetHierarchy', 'The site has no journals yet, so no sets.');
        const parsed = parseSiteSetSpec(q.s);
        if (!parsed || !site.some((j) => j.id === parsed.journal))
          throw new OaiError('noRecordsMatch', `There is no set "${q.s}".`);
        journal = parsed.journal;
        place = parsed.place;
      } else {
        if (!(await this.deps.works.volumesWithIssues()).length) {
          throw new OaiError('noSetHierarchy', 'The journal has no volumes yet, so no sets.');
        }
        const parsed = parseSetSpec(q.s);
        if (!parsed) throw new OaiError('noRecordsMatch', `There is no set "${q.s}".`);
        place = parsed;
      }
    }
    return {
      includeUnpublished: true,
      journal,
      place,
      from: from?.date,
      untilExclusive: until ? afterUntil(until) : undefined,
    };
  }

  private header(work: Work): XmlElement {
    // In the site's repository, the journal's set and its volume and issue under it.
    const under = this.deps.journals ? `${journalSetSpec(work.journalId)}:` : '';
    return el(
      'header',
      work.status === 'published' ? null : { status: 'deleted' },
      el('identifier', null, this.identifier(work.id)),
      el('datestamp', null, oaiDatestamp(work.updatedAt)),
      under ? el('setSpec', null, journalSetSpec(work.journalId)) : null,
      el('setSpec', null, under + volumeSetSpec(work.volume.number)),
      el('setSpec', null, under + issueSetSpec(work.volume.number, work.issue.number)),
    );
  }

  /** The full texts of the published works, when the format carries them (one query per page). */
  private async bodies(works: Work[], prefix: MetadataPrefix): Promise<Map<number, XmlElement[]>> {
    if (prefix !== 'jats' || !this.deps.fullTexts) return new Map();
    return this.deps.fullTexts(works.filter((w) => w.status === 'published').map((w) => w.id));
  }

  private record(
    work: Work,
    prefix: MetadataPrefix,
    journal: JournalSettings,
    bodies: Map<number, XmlElement[]>,
  ): XmlElement {
    if (work.status !== 'published') return el('record', null, this.header(work));
    const metadata =
      prefix === 'oai_dc'
        ? oaiDc(work, journal)
        : jatsArticle(work, journal, { fullText: bodies.get(work.id) });
    return el('record', null, this.header(work), el('metadata', null, metadata));
  }
}
