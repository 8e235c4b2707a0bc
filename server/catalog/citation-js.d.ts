// The parts of Citation.js this project uses (the packages ship no types).
declare module '@citation-js/core' {
  export type CslData = Record<string, unknown> & { id: string };
  export class Cite {
    constructor(data: unknown, options?: Record<string, unknown>);
    data: CslData[];
    format(format: string, options?: Record<string, unknown>): string;
  }
  export const plugins: {
    config: {
      get(name: '@csl'): {
        styles: { add(name: string, xml: string): void; has(name: string): boolean };
        locales: {
          add(name: string, xml: string): void;
          has(name: string): boolean;
          get(name: string): string;
        };
      };
    };
  };
}
declare module '@citation-js/plugin-bibtex';
declare module '@citation-js/plugin-ris';
declare module '@citation-js/plugin-csl';
