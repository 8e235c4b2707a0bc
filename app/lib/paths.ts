/** Whether a link to `to` leads to the page being shown (or, for section links, to the section it is in). */
export function isCurrentPath(pathname: string, to: string): boolean {
  const here = pathname.replace(/\/+$/, '') || '/';
  if (to === '/') return here === '/' || here === '/home';
  return here === to || here.startsWith(`${to}/`);
}
