/** Count the documents of one collection in a compiled LevelDB pack. */
export function countPackDocuments(packDir: string, collection: string): Promise<number>;
/** A template with the line breaks and indentation between tags and expressions removed. */
export function collapseTemplateWhitespace(source: string): string;
/** The documents a pack's sources describe, by LevelDB sublevel ("macros", "journal", "journal.pages"). */
export function expectedCounts(src: string, type: string): Promise<Record<string, number>>;
/** Compile a pack with the Foundry CLI and check every sublevel's count against the sources; throws on a mismatch. */
export function compileCheckedPack(src: string, dest: string, type: string): Promise<Record<string, number>>;
