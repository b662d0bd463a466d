// SIGTERM during a request: the server stops accepting, the request finishes with its answer,
// the database is closed and the process exits 0 (issue 2 acceptance).
import { spawn } from 'node:child_process';
import http from 'node:http';
import { describe, expect, it } from 'vitest';

function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

describe('graceful shutdown', () => {
  it('lets the request in flight finish, refuses new ones, closes the database and exits 0', async () => {
    const child = spawn(process.execPath, ['tests/fixtures/slow-server.ts'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const waitFor = (text: string) =>
      new Promise<string>((resolve, reject) => {
        const check = () => {
          const match = output.match(new RegExp(`${text}.*`));
          if (match) resolve(match[0]);
        };
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          check();
        });
        child.on('exit', () => reject(new Error(`exited before "${text}":\n${output}`)));
        check();
      });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );

    const port = Number((await waitFor('listening \\d+')).split(' ')[1]);
    expect((await get(port, '/')).status).toBe(200);

    const inFlight = get(port, '/slow');
    await waitFor('request started');
    child.kill('SIGTERM');
    await waitFor('SIGTERM received');

    // A new request gets no answer: refused, or (accepted a moment before) its connection reset.
    await expect(get(port, '/')).rejects.toMatchObject({
      code: expect.stringMatching(/^(ECONNREFUSED|ECONNRESET)$/) as unknown,
    });
    expect(await inFlight).toEqual({ status: 200, body: 'done 42' });
    expect(await exited).toBe(0);
    expect(output).toMatch(/database closed[\s\S]*Galerie: stopped\./);
  });
});
