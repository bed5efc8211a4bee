/** Count the documents of one collection in a compiled LevelDB pack. */
export function countPackDocuments(packDir: string, collection: string): Promise<number>;
