// Types of build-server.mjs for the TypeScript that imports it (the cluster tests).
export const SERVER_SOURCES: string[];
export const SERVER_OUT: string;
export const SERVER_MARKER: string;
export function isStale(built: string, sources: string[]): boolean;
export function serverBuildStale(): boolean;
export function buildServer(root?: string): Promise<number>;
