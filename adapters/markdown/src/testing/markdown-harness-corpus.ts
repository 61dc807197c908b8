/** The scope every harness writer writes to, so they all contend for the same files. */
export const harnessScope = { companyId: 'harness', agentId: 'shared' };

/** Records per harness batch, besides the counter merge. */
export const harnessBatchSize = 10;

/** The texts of one batch of one writer; the batch number can be read back from each. */
export function batchTexts(writer: string, batch: number): string[] {
  return Array.from({ length: harnessBatchSize }, (_, index) => `Writer ${writer} batch ${batch} record ${index} keeps the deploy notes.`);
}

/** The text of a writer's counter record, which every batch merges into (metadata.batch). */
export function counterText(writer: string): string {
  return `Writer ${writer} counter record.`;
}

const batchPattern = /^Writer (\S+) batch (\d+) record (\d+) keeps the deploy notes\.$/;

/** The writer and batch of a harness text, or undefined for another text. */
export function batchOf(text: string): { writer: string; batch: number } | undefined {
  const match = batchPattern.exec(text);
  return match === null ? undefined : { writer: match[1] as string, batch: Number(match[2]) };
}
