/** Draws a one-line progress bar on a stream, for the CLI. */
export function createProgressBar(write: (text: string) => void, label: string, width = 30): { update(done: number, total: number): void; finish(): void } {
  let drawn = false;
  return {
    update(done, total) {
      const ratio = total === 0 ? 1 : Math.min(1, done / total);
      const filled = Math.round(ratio * width);
      write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(Math.round(ratio * 100)).padStart(3)}% ${done}/${total}`);
      drawn = true;
    },
    finish() {
      if (drawn) write('\n');
      drawn = false;
    },
  };
}
