import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A webhook receiver on this machine that takes each request and never answers (issue 37); counts them. */
export async function hangingReceiver() {
  let requests = 0;
  const server = http.createServer(() => void requests++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests: () => requests,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    },
  };
}
