import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { serveMcp } from '../mcp-serve';

/** `memplane-mcp --transport http` on a data folder, as its command runs it, until `stop`. */
export interface ServingMcpHttp {
  /** The endpoint's URL. */
  url: string;
  /** Every line the server wrote for its operator (standard error of the command). */
  logged: string[];
  /** Connects a client with a bearer token. */
  connect(token: string): Promise<Client>;
  /** Closes the clients, stops the server and waits until it closed the service. */
  stop(): Promise<void>;
}

/** Starts `serveMcp` over HTTP on loopback, port 0, and resolves once it listens. */
export async function serveMcpHttp(dataDirectory: string): Promise<ServingMcpHttp> {
  let stop!: () => void;
  const stopped = new Promise<void>((resolveStop) => (stop = resolveStop));
  const logged: string[] = [];
  let listening!: (url: string) => void;
  const url = new Promise<string>((resolveUrl) => (listening = resolveUrl));
  const served = serveMcp({
    transport: 'http',
    dataDirectory,
    host: '127.0.0.1',
    port: 0,
    stopped,
    log: (line) => {
      logged.push(line);
      const address = /listening on (\S+)$/.exec(line)?.[1];
      if (address !== undefined) listening(address);
    },
  });
  const endpoint = await Promise.race([url, served.then(() => '')]);
  const clients: Client[] = [];
  return {
    url: endpoint,
    logged,
    async connect(token) {
      const client = new Client({ name: 'serve-test', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(endpoint), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
      clients.push(client);
      return client;
    },
    async stop() {
      await Promise.all(clients.splice(0).map((client) => client.close()));
      stop();
      await served;
    },
  };
}
