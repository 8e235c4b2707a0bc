/**
 * The CSL styles that @citation-js/plugin-csl does not bundle (it ships Vancouver and Harvard, "Cite Them
 * Right"), and APA 7th, which it bundles at a price (see APA). Written for this journal (decision 0011): they
 * cover what we cite, journal articles, following the manuals' rules for those (APA Publication Manual 7th
 * edition, MLA Handbook 9th edition, The Chicago Manual of Style 17th edition author-date, the IEEE
 * Reference Guide). Kept as strings, not files, so that they load
 * the same from the sources and from a build.
 */

const header = (id: string, title: string) => `<?xml version="1.0" encoding="utf-8"?>
<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0" demote-non-dropping-particle="never" page-range-format="expanded" default-locale="en-US">
  <info>
    <title>${title}</title>
    <id>urn:colophon:csl:${id}</id>
    <updated>2026-11-22T00:00:00+00:00</updated>
  </info>`;

/** The DOI as a link (MLA, Chicago), else the article's address. */
const DOI_OR_URL = `
  <macro name="access">
    <choose>
      <if variable="DOI">
        <text variable="DOI" prefix="https://doi.org/"/>
      </if>
      <else>
        <text variable="URL"/>
      </else>
    </choose>
  </macro>`;

const AUTHOR_CITATION = `
  <citation>
    <layout>
      <names variable="author">
        <name form="short" and="text"/>
      </names>
    </layout>
  </citation>`;

/** MLA 9: Surname, Given, et al. "Title." Journal, vol. 1, no. 2, Mar. 2025, pp. 1–10, https://doi.org/…. */
export const MLA = `${header('mla', 'MLA Handbook 9th edition (journal articles)')}
  <macro name="author">
    <names variable="author">
      <name name-as-sort-order="first" and="text" delimiter=", " delimiter-precedes-last="always" delimiter-precedes-et-al="always" et-al-min="3" et-al-use-first="1"/>
    </names>
  </macro>
  ${DOI_OR_URL}
  ${AUTHOR_CITATION}
  <bibliography hanging-indent="true">
    <layout suffix=".">
      <group delimiter=" ">
        <text macro="author" suffix="."/>
        <text variable="title" quotes="true" text-case="title" suffix="."/>
        <group delimiter=", ">
          <text variable="container-title" font-style="italic"/>
          <group delimiter=" ">
            <text term="volume" form="short"/>
            <text variable="volume"/>
          </group>
          <group delimiter=" ">
            <text term="issue" form="short"/>
            <text variable="issue"/>
          </group>
          <date variable="issued" delimiter=" ">
            <date-part name="month" form="short"/>
            <date-part name="year"/>
          </date>
          <group delimiter=" ">
            <label variable="page" form="short"/>
            <text variable="page"/>
          </group>
          <text macro="access"/>
        </group>
      </group>
    </layout>
  </bibliography>
</style>`;

/** Chicago 17th, author-date: Surname, Given, and Given Surname. 2025. "Title." Journal 1 (2): 1–10. https://doi.org/…. */
export const CHICAGO = `${header('chicago', 'The Chicago Manual of Style 17th edition (author-date, journal articles)')}
  <macro name="author">
    <names variable="author">
      <name name-as-sort-order="first" and="text" delimiter=", " delimiter-precedes-last="always" delimiter-precedes-et-al="always" et-al-min="11" et-al-use-first="7"/>
    </names>
  </macro>
  ${DOI_OR_URL}
  ${AUTHOR_CITATION}
  <bibliography hanging-indent="true">
    <layout suffix=".">
      <group delimiter=". ">
        <text macro="author"/>
        <date variable="issued">
          <date-part name="year"/>
        </date>
        <text variable="title" quotes="true" text-case="title"/>
        <group delimiter=": ">
          <group delimiter=" ">
            <text variable="container-title" font-style="italic"/>
            <text variable="volume"/>
            <text variable="issue" prefix="(" suffix=")"/>
          </group>
          <text variable="page"/>
        </group>
        <text macro="access"/>
      </group>
    </layout>
  </bibliography>
</style>`;

/** IEEE: G. Surname, G. Surname, and G. Surname, "Title," Journal, vol. 1, no. 2, pp. 1–10, Mar. 2025, doi: …. */
export const IEEE = `${header('ieee', 'IEEE Reference Guide (journal articles)')}
  <macro name="author">
    <names variable="author">
      <name initialize-with=". " and="text" delimiter=", " delimiter-precedes-last="contextual" et-al-min="7" et-al-use-first="1"/>
    </names>
  </macro>
  <macro name="access">
    <choose>
      <if variable="DOI">
        <text variable="DOI" prefix="doi: "/>
      </if>
      <else>
        <group delimiter=" ">
          <text value="[Online]. Available:"/>
          <text variable="URL"/>
        </group>
      </else>
    </choose>
  </macro>
  ${AUTHOR_CITATION}
  <bibliography>
    <layout suffix=".">
      <group delimiter=", ">
        <text macro="author"/>
        <text variable="title" quotes="true"/>
        <text variable="container-title" font-style="italic"/>
        <group delimiter=" ">
          <text term="volume" form="short"/>
          <text variable="volume"/>
        </group>
        <group delimiter=" ">
          <text term="issue" form="short"/>
          <text variable="issue"/>
        </group>
        <group delimiter=" ">
          <label variable="page" form="short"/>
          <text variable="page"/>
        </group>
        <date variable="issued" delimiter=" ">
          <date-part name="month" form="short"/>
          <date-part name="year"/>
        </date>
        <text macro="access"/>
      </group>
    </layout>
  </bibliography>
</style>`;

/**
 * APA 7th: Surname, G., Surname, G., & Surname, G. (2025). Title. Journal, 1(2), 1–10. https://doi.org/….
 * The same entries as the full APA style citation-js bundles (checked against it in
 * tests/api/citations.test.ts), which covers every kind of work in 66 KB of CSL and costs the processor
 * about 90 MB and a second to compile: this one covers journal articles, all we cite.
 */
export const APA = `${header('apa', 'APA Style 7th edition (journal articles)')}
  <macro name="author">
    <names variable="author">
      <name name-as-sort-order="all" and="symbol" delimiter=", " delimiter-precedes-last="always" delimiter-precedes-et-al="always" initialize-with=". "/>
      <substitute>
        <text variable="title"/>
      </substitute>
    </names>
  </macro>
  <macro name="access">
    <choose>
      <if variable="DOI">
        <text variable="DOI" prefix="https://doi.org/"/>
      </if>
      <else>
        <text variable="URL"/>
      </else>
    </choose>
  </macro>
  ${AUTHOR_CITATION}
  <bibliography hanging-indent="true" et-al-min="21" et-al-use-first="19" et-al-use-last="true">
    <layout>
      <group delimiter=" ">
        <text macro="author" suffix="."/>
        <date variable="issued" prefix="(" suffix=").">
          <date-part name="year"/>
        </date>
        <text variable="title" suffix="."/>
        <group delimiter=", " suffix=".">
          <text variable="container-title" font-style="italic"/>
          <group>
            <text variable="volume" font-style="italic"/>
            <text variable="issue" prefix="(" suffix=")"/>
          </group>
          <text variable="page"/>
        </group>
        <text macro="access"/>
      </group>
    </layout>
  </bibliography>
</style>`;
