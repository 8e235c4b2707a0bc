/**
 * "Firefox on Windows" from a User-Agent header: enough for a person to recognise their own devices in the
 * list of sessions. Unknown agents are shown as they are, shortened.
 */
export function describeUserAgent(ua: string | null | undefined): string {
  const text = (ua ?? '').trim();
  if (!text) return 'Unknown browser';
  const browser = /Edg(e|A|iOS)?\//.test(text)
    ? 'Edge'
    : /OPR\/|Opera/.test(text)
      ? 'Opera'
      : /Firefox\/|FxiOS\//.test(text)
        ? 'Firefox'
        : /Chrom(e|ium)\/|CriOS\//.test(text)
          ? 'Chrome'
          : /Safari\//.test(text) && /Version\//.test(text)
            ? 'Safari'
            : null;
  const system = /iPhone|iPad|iPod/.test(text)
    ? 'iOS'
    : /Android/.test(text)
      ? 'Android'
      : /Windows/.test(text)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(text)
          ? 'macOS'
          : /CrOS/.test(text)
            ? 'ChromeOS'
            : /Linux/.test(text)
              ? 'Linux'
              : null;
  if (browser && system) return `${browser} on ${system}`;
  if (browser) return browser;
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
