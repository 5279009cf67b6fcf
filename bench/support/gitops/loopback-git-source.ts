import { execFile } from 'child_process';
import { createHash } from 'crypto';
import * as http from 'http';
import { AddressInfo } from 'net';
import { promisify } from 'util';
import { gzipSync } from 'zlib';
import { applyObjects, Kubectl } from './kubectl';

const run = promisify(execFile);

/**
 * A stand-in for Flux's source-controller, which cannot be built from the module proxy here
 * (docs/gitops.md): it serves a folder as a tarball artifact over HTTP on 127.0.0.1 and writes the
 * status of a `GitRepository` the way source-controller does (artifact URL, revision, digest, Ready),
 * so kustomize-controller fetches, verifies and applies it exactly as it would from a real Git
 * repository, and re-reconciles when a new revision is published.
 */
export class LoopbackGitSource {
  private constructor(
    /** Tarballs by URL path, as the HTTP server answers them. */
    private readonly artifacts: Map<string, Buffer>,
    private readonly kubectl: Kubectl,
    private readonly server: http.Server,
    readonly namespace: string,
    readonly name: string,
  ) {}

  /** Starts the HTTP server and creates the GitRepository `namespace/name` (not yet Ready). */
  static async start(kubectl: Kubectl, namespace: string, name: string): Promise<LoopbackGitSource> {
    const artifacts = new Map<string, Buffer>();
    const server = http.createServer((request, response) => {
      const artifact = artifacts.get(request.url ?? '');
      response.writeHead(artifact ? 200 : 404, { 'Content-Type': 'application/gzip' });
      response.end(artifact);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const source = new LoopbackGitSource(artifacts, kubectl, server, namespace, name);
    await source.applyObject();
    return source;
  }

  private async applyObject(): Promise<void> {
    const object = {
      apiVersion: 'source.toolkit.fluxcd.io/v1',
      kind: 'GitRepository',
      metadata: { name: this.name, namespace: this.namespace },
      spec: { url: `http://${this.address()}/loopback.git`, interval: '10m', ref: { branch: 'main' } },
    };
    await applyObjects(this.kubectl, 'loopback-git-source', [object]);
  }

  /**
   * Publishes `dir` as the next revision: a deterministic tar.gz (sorted names, fixed owners and
   * times), whose SHA-1 stands in for the commit, and the GitRepository's status pointing at it.
   * Resolves with the revision (`main@sha1:<hex>`).
   */
  async publish(dir: string): Promise<string> {
    const { stdout } = await run(
      'tar',
      ['--sort=name', '--mtime=@0', '--owner=0', '--group=0', '--numeric-owner', '-cf', '-', '-C', dir, '.'],
      { encoding: 'buffer', maxBuffer: 256 * 1024 * 1024 },
    );
    const tarball = gzipSync(stdout);
    const commit = createHash('sha1').update(stdout).digest('hex');
    const revision = `main@sha1:${commit}`;
    const urlPath = `/${commit}.tar.gz`;
    this.artifacts.set(urlPath, tarball);
    const generation = Number(
      await this.kubectl(
        'get',
        'gitrepository',
        this.name,
        '-n',
        this.namespace,
        '-o',
        'jsonpath={.metadata.generation}',
      ),
    );
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const status = {
      observedGeneration: generation,
      artifact: {
        path: `gitrepository/${this.namespace}/${this.name}/${commit}.tar.gz`,
        url: `http://${this.address()}${urlPath}`,
        revision,
        digest: `sha256:${createHash('sha256').update(tarball).digest('hex')}`,
        lastUpdateTime: now,
        size: tarball.length,
      },
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'Succeeded',
          message: `stored artifact for revision '${revision}'`,
          lastTransitionTime: now,
          observedGeneration: generation,
        },
      ],
    };
    await this.kubectl(
      'patch',
      'gitrepository',
      this.name,
      '-n',
      this.namespace,
      '--subresource=status',
      '--type=merge',
      '-p',
      JSON.stringify({ status }),
    );
    return revision;
  }

  /** Stops serving; the GitRepository object is left to the namespace's deletion. */
  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private address(): string {
    const { port } = this.server.address() as AddressInfo;
    return `127.0.0.1:${port}`;
  }
}
