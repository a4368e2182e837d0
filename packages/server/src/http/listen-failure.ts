/** Why the HTTP port could not be opened, in the words of whoever runs `npm start`, with the setting to change. */
export function listenFailure(err: unknown, host: string, port: number): Error {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const where = `port ${port} on ${host}`;
  if (code === 'EADDRINUSE')
    return new Error(
      `Roomwalk cannot listen on ${where}: another program is using it. Stop that program, or choose another port with PORT in .env (see .env.example).`,
    );
  if (code === 'EACCES')
    return new Error(
      `Roomwalk may not listen on ${where}: ports below 1024 need extra rights. Choose another port with PORT in .env (see .env.example).`,
    );
  if (code === 'EADDRNOTAVAIL')
    return new Error(
      `Roomwalk cannot listen on ${where}: ${host} is not an address of this machine. Set HOST in .env to one of its addresses, or 127.0.0.1.`,
    );
  return err instanceof Error ? err : new Error(String(err));
}
