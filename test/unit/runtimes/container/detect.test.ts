import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dockerEndpoints } from '../../../../runtimes/docker.js';
import { podmanSocket, PODMAN } from '../../../../runtimes/podman.js';
import { parseHostUrl, type DetectEnv } from '../../../../runtimes/container/dialect.js';
import { demux } from '../../../../runtimes/container/api-engine.js';

const detect = (env: NodeJS.ProcessEnv, existing: string[] = [], uid = 0): DetectEnv => ({ env, uid, home: '/home/u', exists: (p) => existing.includes(p) });

test('DOCKER_HOST wins and is the only endpoint tried, as for the docker CLI', () => {
  assert.deepEqual(dockerEndpoints(detect({ DOCKER_HOST: 'unix:///tmp/d.sock' }, ['/var/run/docker.sock'])), [{ socketPath: '/tmp/d.sock' }]);
  assert.deepEqual(dockerEndpoints(detect({ DOCKER_HOST: 'tcp://10.0.0.1:2375' })), [{ host: '10.0.0.1', port: 2375, protocol: 'http' }]);
});

test('without DOCKER_HOST: the system socket, then rootless and Docker Desktop ones that exist', () => {
  const all = ['/var/run/docker.sock', '/run/user/1000/docker.sock', '/home/u/.docker/run/docker.sock', '/home/u/.docker/desktop/docker.sock'];
  assert.deepEqual(dockerEndpoints(detect({ XDG_RUNTIME_DIR: '/run/user/1000' }, all)).map((e) => ('socketPath' in e ? e.socketPath : '')), all);
  assert.deepEqual(dockerEndpoints(detect({}, ['/home/u/.docker/run/docker.sock'])), [{ socketPath: '/home/u/.docker/run/docker.sock' }]);
  assert.deepEqual(dockerEndpoints(detect({})), []);
});

test('podman: CONTAINER_HOST, else the rootful or the rootless socket', () => {
  assert.deepEqual(podmanSocket(detect({ CONTAINER_HOST: 'unix:///x/p.sock' })), { endpoint: { socketPath: '/x/p.sock' }, explicit: true });
  assert.deepEqual(podmanSocket(detect({})).endpoint, { socketPath: '/run/podman/podman.sock' });
  assert.deepEqual(podmanSocket(detect({}, [], 1000)).endpoint, { socketPath: '/run/user/1000/podman/podman.sock' });
  assert.deepEqual(podmanSocket(detect({ XDG_RUNTIME_DIR: '/xdg' }, [], 1000)).endpoint, { socketPath: '/xdg/podman/podman.sock' });
  // A default socket that does not exist is not tried (the service is started instead).
  assert.deepEqual(PODMAN.endpoints(detect({})), []);
  assert.deepEqual(PODMAN.endpoints(detect({}, ['/run/podman/podman.sock'])), [{ socketPath: '/run/podman/podman.sock' }]);
});

test('host URLs: unix and tcp; anything else is not an endpoint', () => {
  assert.deepEqual(parseHostUrl('unix:///a/b.sock'), { socketPath: '/a/b.sock' });
  assert.deepEqual(parseHostUrl('https://h:2376'), { host: 'h', port: 2376, protocol: 'https' });
  assert.equal(parseHostUrl('ssh://user@h'), undefined);
});

test("a non-TTY container's framed log is demultiplexed; unframed text is left as it is", () => {
  const frame = (stream: number, text: string): Buffer => {
    const header = Buffer.alloc(8);
    header[0] = stream;
    header.writeUInt32BE(Buffer.byteLength(text), 4);
    return Buffer.concat([header, Buffer.from(text)]);
  };
  assert.equal(demux(Buffer.concat([frame(1, 'out\n'), frame(2, 'err\n')])).toString(), 'out\nerr\n');
  assert.equal(demux(Buffer.from('plain text log line\n')).toString(), 'plain text log line\n');
});
