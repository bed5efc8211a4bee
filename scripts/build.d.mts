/** Count the documents of one collection in a compiled LevelDB pack. */
export function countPackDocuments(packDir: string, collection: string): Promise<number>;
/** A template with the line breaks and indentation between tags and expressions removed. */
export function collapseTemplateWhitespace(source: string): string;
