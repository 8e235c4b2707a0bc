type Match = { id: string; loaderData?: unknown } | undefined;

/** The journal's name from the root loader (the site's, on the site's own pages), for page titles. */
export function journalNameFrom(matches: readonly Match[]): string | undefined {
  const root = matches.find((m) => m?.id === 'root')?.loaderData as
    | { journal?: { name?: string } | null; site?: { name?: string } | null }
    | undefined;
  return root?.journal?.name ?? root?.site?.name;
}

/** "Page · Journal name", or the journal's name alone. */
export function pageTitle(matches: readonly Match[], page?: string): string {
  const name = journalNameFrom(matches);
  if (!page) return name ?? 'Journal';
  return name ? `${page} · ${name}` : page;
}
