"""A steady API load against a cloud, counting every failed request (issue 24's zero-failure proof).

Runs in a pod with the cloud's admin credentials (OS_* variables) and Python's standard library
only. Every request opens a new TCP connection (so a request lands on whichever pod the Service
picks at that moment), waits at most 10 s and is never retried. One JSON line per request on
stdout: {"t": epoch seconds, "op": ..., "status": HTTP status or 0, "ms": ..., "ok": ..., "error": ...}.

Usage: api-load.py fixtures            create the fixtures, print them as one JSON line
       api-load.py load FIXTURES_JSON  load until /tmp/stop exists (or LOAD_MAX_SECONDS), then exit
       api-load.py verify FIXTURES_JSON  check the fixtures are intact, print one JSON line
       api-load.py credential LABEL    store an EC2 credential, print its id and blob as one JSON line
       api-load.py credentials-read CREDENTIALS_JSON  read each {id: blob} 6 times, print the count
                                       of reads that gave the blob back, as one JSON line
       api-load.py users NAMES_JSON    whether each user is enabled (null: no such user), as one JSON line

Each loop validates a token (new and old) and reads the image and the resource provider, and,
where the catalog has Nova and Neutron (the compute suite's cloud), lists the servers and the
networks; every LOAD_TOKEN_EVERY-th loop (4) issues a new token, every tenth creates and deletes a
project and an image. A request fails on a connection error, a timeout, a 5xx, a 401 (the token issued before the
upgrade must stay valid) or any status the operation does not expect.

Names are resolved once, before the load starts (`pin_addresses`), and every request connects to
that address with the name in its Host header. The upgrade replaces pods, never Services, so a
Service's address holds for the whole run; what the load measures is then the cloud's APIs and
not the cluster's DNS (a CI run once lost four requests to a 10 s DNS stall mid-upgrade, the two
5 s resolver timeouts of glibc, while every API pod answered).
"""
import hashlib
import http.client
import json
import os
import socket
import sys
import threading
import time
import urllib.parse

TIMEOUT_S = 10
STOP_FILE = '/tmp/stop'
IMAGE_BYTES = 1024 * 1024
TOKEN_EVERY = int(os.environ.get('LOAD_TOKEN_EVERY', '4'))
RESOLVE_ATTEMPTS = 10
PINNED = {}  # host name -> address, filled by pin_addresses


def pin_addresses(urls):
    """Resolves each URL's host once (retrying a slow resolver) so that requests skip DNS."""
    for url in urls:
        host = urllib.parse.urlsplit(url).hostname
        for attempt in range(1, RESOLVE_ATTEMPTS + 1):
            try:
                PINNED[host] = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)[0][4][0]
                break
            except socket.gaierror:
                if attempt == RESOLVE_ATTEMPTS:
                    raise
                time.sleep(1)


def request(method, url, headers=None, body=None):
    """One request on a new connection: (status, headers, body bytes); raises on network errors."""
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(PINNED.get(parts.hostname, parts.hostname), parts.port or 80,
                                      timeout=TIMEOUT_S)
    try:
        path = parts.path + (f'?{parts.query}' if parts.query else '')
        conn.request(method, path, body=body, headers={'Host': parts.netloc, **(headers or {})})
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


def password_auth():
    env = os.environ
    return json.dumps({'auth': {
        'identity': {'methods': ['password'], 'password': {'user': {
            'name': env['OS_USERNAME'], 'password': env['OS_PASSWORD'],
            'domain': {'name': env['OS_USER_DOMAIN_NAME']}}}},
        'scope': {'project': {'name': env['OS_PROJECT_NAME'], 'domain': {'name': env['OS_PROJECT_DOMAIN_NAME']}}},
    }})


def issue_token():
    status, headers, body = request('POST', os.environ['OS_AUTH_URL'] + '/auth/tokens',
                                    {'Content-Type': 'application/json'}, password_auth())
    if status != 201:
        raise RuntimeError(f'token issue answered {status}: {body[:200]!r}')
    token = {k.lower(): v for k, v in headers.items()}['x-subject-token']
    return token, json.loads(body)['token']


def endpoint(catalog, service_type, required=True):
    """The URL of a service's endpoint of OS_INTERFACE; None when it is not required and absent."""
    interface = os.environ.get('OS_INTERFACE', 'internal')
    for service in catalog:
        if service['type'] == service_type:
            for e in service['endpoints']:
                if e['interface'] == interface:
                    return e['url'].rstrip('/')
    if not required:
        return None
    raise RuntimeError(f'no {interface} endpoint of {service_type} in the catalog')


def image_content():
    """1 MiB of deterministic bytes."""
    block = hashlib.sha256(b'stackwright-upgrade-fixture').digest()
    return (block * (IMAGE_BYTES // len(block) + 1))[:IMAGE_BYTES]


def fixtures():
    token, body = issue_token()
    catalog = body['catalog']
    keystone = os.environ['OS_AUTH_URL']
    glance = endpoint(catalog, 'image')
    placement = endpoint(catalog, 'placement')
    auth = {'X-Auth-Token': token, 'Content-Type': 'application/json'}
    domain = body['project']['domain']['id']
    status, _, out = request('POST', keystone + '/projects', auth,
                             json.dumps({'project': {'name': f'upgrade-fixture-{int(time.time())}', 'domain_id': domain}}))
    assert status == 201, (status, out)
    project = json.loads(out)['project']['id']
    status, _, out = request('POST', glance + '/v2/images', auth, json.dumps(
        {'name': 'upgrade-fixture', 'disk_format': 'raw', 'container_format': 'bare', 'visibility': 'public'}))
    assert status == 201, (status, out)
    image = json.loads(out)['id']
    status, _, out = request('PUT', f'{glance}/v2/images/{image}/file',
                             {'X-Auth-Token': token, 'Content-Type': 'application/octet-stream'}, image_content())
    assert status == 204, (status, out)
    status, _, out = request('POST', placement + '/resource_providers',
                             {**auth, 'OpenStack-API-Version': 'placement 1.20'},
                             json.dumps({'name': f'upgrade-fixture-{int(time.time())}'}))
    assert status == 200, (status, out)
    provider = json.loads(out)['uuid']
    credential = store_credential(token, body, 'before the upgrade')
    return {'token': token, 'domain': domain, 'project': project, 'image': image, 'provider': provider,
            'sha256': hashlib.sha256(image_content()).hexdigest(), 'glance': glance, 'placement': placement,
            'compute': endpoint(catalog, 'compute', required=False),
            'network': endpoint(catalog, 'network', required=False), 'credential': credential}


def store_credential(token, token_body, label):
    """An EC2 credential of the token's user (Keystone encrypts its blob with the credential keys)."""
    blob = json.dumps({'access': hashlib.sha1(label.encode()).hexdigest(), 'secret': label})
    status, _, out = request('POST', os.environ['OS_AUTH_URL'] + '/credentials',
                             {'X-Auth-Token': token, 'Content-Type': 'application/json'},
                             json.dumps({'credential': {'type': 'ec2', 'blob': blob,
                                                        'user_id': token_body['user']['id'],
                                                        'project_id': token_body['project']['id']}}))
    assert status == 201, (status, out)
    return {'id': json.loads(out)['credential']['id'], 'blob': blob}


def read_credentials(credentials, rounds=6):
    """Reads each credential `rounds` times (a new connection each: the Service spreads them over the pods)."""
    token, _ = issue_token()
    good = 0
    for _ in range(rounds):
        for c in credentials:
            status, _, out = request('GET', f"{os.environ['OS_AUTH_URL']}/credentials/{c['id']}", {'X-Auth-Token': token})
            good += status == 200 and json.loads(out)['credential']['blob'] == c['blob']
    return {'reads': rounds * len(credentials), 'identical': good}


class Recorder:
    def __init__(self):
        self.lock = threading.Lock()

    def record(self, op, expected, call):
        start = time.time()
        line = {'t': round(start, 3), 'op': op}
        try:
            status, headers, body = call()
            line['status'] = status
            line['ok'] = status in expected
            if not line['ok']:
                line['error'] = body[:200].decode('utf-8', 'replace')
        except Exception as error:  # a connection error or a timeout is a failed request
            status, headers, body = 0, {}, b''
            line.update(status=0, ok=False, error=f'{type(error).__name__}: {error}')
        line['ms'] = round((time.time() - start) * 1000, 1)
        with self.lock:
            sys.stdout.write(json.dumps(line) + '\n')
            sys.stdout.flush()
        return status, headers, body


def load_loop(fx, recorder, deadline, worker):
    keystone = os.environ['OS_AUTH_URL']
    loop = 0
    token = None
    while not os.path.exists(STOP_FILE) and time.time() < deadline:
        loop += 1
        # A password check costs Keystone a bcrypt hash, the dearest request by far: a new token
        # every TOKEN_EVERY loops keeps the issue path under test without it being all the load.
        if token is None or loop % TOKEN_EVERY == 0:
            status, headers, _ = recorder.record(
                'token-issue', {201},
                lambda: request('POST', keystone + '/auth/tokens', {'Content-Type': 'application/json'},
                                password_auth()))
            token = {k.lower(): v for k, v in headers.items()}.get('x-subject-token') if status == 201 else None
            if token is None:
                continue
        auth = {'X-Auth-Token': token, 'Content-Type': 'application/json'}
        recorder.record('token-validate-new', {200},
                        lambda: request('GET', keystone + '/auth/tokens', {**auth, 'X-Subject-Token': token}))
        recorder.record('token-validate-old', {200},
                        lambda: request('GET', keystone + '/auth/tokens', {**auth, 'X-Subject-Token': fx['token']}))
        recorder.record('image-read', {200},
                        lambda: request('GET', f"{fx['glance']}/v2/images/{fx['image']}", auth))
        recorder.record('provider-read', {200},
                        lambda: request('GET', f"{fx['placement']}/resource_providers/{fx['provider']}",
                                        {**auth, 'OpenStack-API-Version': 'placement 1.20'}))
        if fx.get('compute'):
            recorder.record('server-list', {200}, lambda: request('GET', f"{fx['compute']}/servers/detail", auth))
        if fx.get('network'):
            recorder.record('network-list', {200}, lambda: request('GET', f"{fx['network']}/v2.0/networks", auth))
        if loop % 10 == worker % 10:
            name = f'upgrade-load-{worker}-{loop}-{int(time.time())}'
            status, _, body = recorder.record('project-create', {201}, lambda: request(
                'POST', keystone + '/projects', auth, json.dumps({'project': {'name': name, 'domain_id': fx['domain']}})))
            if status == 201:
                project = json.loads(body)['project']['id']
                recorder.record('project-delete', {204},
                                lambda: request('DELETE', f'{keystone}/projects/{project}', auth))
            status, _, body = recorder.record('image-create', {201}, lambda: request(
                'POST', f"{fx['glance']}/v2/images", auth,
                json.dumps({'name': name, 'disk_format': 'raw', 'container_format': 'bare'})))
            if status == 201:
                image = json.loads(body)['id']
                recorder.record('image-delete', {204},
                                lambda: request('DELETE', f"{fx['glance']}/v2/images/{image}", auth))


def load(fx):
    pin_addresses([os.environ['OS_AUTH_URL'], fx['glance'], fx['placement'],
                   *[fx[api] for api in ('compute', 'network') if fx.get(api)]])
    deadline = time.time() + float(os.environ.get('LOAD_MAX_SECONDS', '3600'))
    recorder = Recorder()
    workers = [threading.Thread(target=load_loop, args=(fx, recorder, deadline, i))
               for i in range(int(os.environ.get('LOAD_WORKERS', '3')))]
    for w in workers:
        w.start()
    for w in workers:
        w.join()


def verify(fx):
    token, _ = issue_token()
    auth = {'X-Auth-Token': token}
    status, _, body = request('GET', f"{fx['glance']}/v2/images/{fx['image']}/file", auth)
    image_ok = status == 200 and hashlib.sha256(body).hexdigest() == fx['sha256']
    status_p, _, _ = request('GET', f"{os.environ['OS_AUTH_URL']}/projects/{fx['project']}", auth)
    status_r, _, _ = request('GET', f"{fx['placement']}/resource_providers/{fx['provider']}",
                             {**auth, 'OpenStack-API-Version': 'placement 1.20'})
    credential = read_credentials([fx['credential']], rounds=1)
    return {'image_identical': image_ok, 'project': status_p, 'provider': status_r,
            'credential_identical': credential['identical'] == 1}


def users_enabled(names):
    token, _ = issue_token()
    enabled = {}
    for name in names:
        status, _, body = request('GET', f"{os.environ['OS_AUTH_URL']}/users?name={urllib.parse.quote(name)}",
                                  {'X-Auth-Token': token})
        if status != 200:
            raise RuntimeError(f'user list answered {status}: {body[:200]!r}')
        found = json.loads(body)['users']
        enabled[name] = found[0]['enabled'] if found else None
    return enabled


if __name__ == '__main__':
    mode = sys.argv[1]
    if mode == 'fixtures':
        print(json.dumps(fixtures()))
    elif mode == 'load':
        load(json.loads(sys.argv[2]))
    elif mode == 'verify':
        print(json.dumps(verify(json.loads(sys.argv[2]))))
    elif mode == 'credential':
        print(json.dumps(store_credential(*issue_token(), sys.argv[2])))
    elif mode == 'credentials-read':
        print(json.dumps(read_credentials(json.loads(sys.argv[2]))))
    elif mode == 'users':
        print(json.dumps(users_enabled(json.loads(sys.argv[2]))))
    else:
        sys.exit(f'unknown mode {mode}; use fixtures, load, verify, credential, credentials-read or users')
