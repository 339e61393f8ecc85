import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server for a fake platform (DingTalk, WeCom, Feishu): the handler's failure is a 500 with its message,
 * the port is free, and close() ends open connections too.
 */
export async function serveFake(handler: (req: IncomingMessage, res: ServerResponse) => Promise<unknown>): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    handler(req, res).catch((error: unknown) => {
      res.writeHead(500);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
