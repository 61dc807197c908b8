import pg from 'pg';

/**
 * Waits until `check` holds, re-checking on every notification on `channel` (the processes
 * under test `NOTIFY` after each change), so nothing waits on a guessed delay. Fails after
 * `deadlineMs` with the description of what never happened.
 */
export async function waitForDatabaseCondition(
  url: string,
  channel: string,
  check: (client: pg.Client) => Promise<boolean>,
  options: { deadlineMs: number; description: string },
): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let timer: NodeJS.Timeout | undefined;
  try {
    await client.query(`LISTEN "${channel}"`);
    await new Promise<void>((resolve, reject) => {
      let settled = false;
      let checking = Promise.resolve();
      const evaluate = () => {
        checking = checking
          .then(async () => {
            if (!settled && (await check(client))) {
              settled = true;
              resolve();
            }
          })
          .catch((error: unknown) => {
            settled = true;
            reject(error);
          });
      };
      client.on('notification', evaluate);
      timer = setTimeout(() => {
        if (settled) return;
        settled = true;
        reject(new TypeError(`Gave up after ${options.deadlineMs} ms waiting for ${options.description}.`));
      }, options.deadlineMs);
      evaluate();
    });
  } finally {
    clearTimeout(timer);
    await client.end();
  }
}
