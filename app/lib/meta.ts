type Match = { id: string; loaderData?: unknown } | undefined;

/** The journal's name from the root loader, for page titles. */
export function journalNameFrom(matches: readonly Match[]): string | undefined {
  const root = matches.find((m) => m?.id === 'root')?.loaderData as
    | { journal?: { name?: string } }
    | undefined;
  return root?.journal?.name;
}

/** "Page · Journal name", or the journal's name alone. */
export function pageTitle(matches: readonly Match[], page?: string): string {
  const name = journalNameFrom(matches);
  if (!page) return name ?? 'Journal';
  return name ? `${page} · ${name}` : page;
}
