import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { freePort, waitForHttp } from './global-setup.ts';

/** nginx from Debian's packages (.ci/run installs nginx-light), when this machine has it. */
export const nginxBin = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));

/**
 * nginx in front of several server processes, as docs/deploy.md sets it up: round robin, no sticky sessions, no
 * buffering either way (server-sent events and uploads pass at once), the client's address appended to
 * X-Forwarded-For, a process that fails a request set aside for 10 s. Answers its address and its process.
 */
export async function startNginx(dir: string, upstreams: string[]): Promise<{ base: string; child: ChildProcess }> {
  if (!nginxBin) throw new Error('nginx is not installed (apt-get install -y nginx-light)');
  const port = await freePort();
  for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(path.join(dir, sub), { recursive: true });
  writeFileSync(path.join(dir, 'nginx.conf'), `
daemon off; worker_processes 1; pid ${dir}/nginx.pid; error_log ${dir}/error.log warn;
events { worker_connections 2048; }
http {
  access_log off;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  upstream tritium { ${upstreams.map((u) => `server ${u.replace('http://', '')} max_fails=1 fail_timeout=10s;`).join(' ')} keepalive 64; }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 20m;
    location / {
      proxy_pass http://tritium;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_buffering off;
      proxy_request_buffering off;
      proxy_read_timeout 1h;
    }
  }
}`);
  const child = spawn(nginxBin, ['-p', dir, '-c', path.join(dir, 'nginx.conf')], { stdio: 'ignore' });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${base}/v1/register/getscalelist`, child, 30_000);
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  }
  return { base, child };
}
