/**
 * The command that serves an OpenStack WSGI application (`placement-api`, `nova-api-wsgi`,
 * `nova-metadata-wsgi`) with uWSGI on `port`. The services' own console scripts start a
 * single-threaded development server; uWSGI is what their deployment guides use.
 *
 * `--http-socket` closes the connection after every response without saying so; HTTP/1.1 clients
 * (python-requests in every OpenStack client) then reuse it and their next request races the close:
 * `Connection reset by peer` on the real node. `Connection: close` tells them not to reuse it.
 *
 * @param script the WSGI script installed by the service's package, found on the image's PATH
 */
export function uwsgiCommand(script: string, port: number, processes = 2): string[] {
  return [
    '/bin/sh',
    '-ec',
    `exec uwsgi --http-socket :${port} --wsgi-file "$(command -v ${script})" --master --processes ${processes} ` +
      '--enable-threads --die-on-term --lazy-apps --buffer-size 65535 --add-header "Connection: close" ' +
      '--hook-master-start "unix_signal:15 gracefully_kill_them_all"',
  ];
}
