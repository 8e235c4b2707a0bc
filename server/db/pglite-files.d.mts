// Types of pglite-files.mjs (plain JavaScript, for PGlite's thread).
export declare const folderOf: (template: string) => string;
export declare const spareOf: (template: string) => string;
export declare function copyTree(from: string, to: string, skip?: string): void;
export declare function takeSpare(template: string, dataDir: string): boolean;
export declare function makeSpare(
  template: string,
  opts?: { sync?: boolean; stopped?: () => boolean },
): Promise<boolean>;
