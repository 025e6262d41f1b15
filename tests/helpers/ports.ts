/** Ports for servers that tests start in other processes. */
import net from 'node:net';

/** A TCP port free on loopback at the time of asking (the child process then listens on it). */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
