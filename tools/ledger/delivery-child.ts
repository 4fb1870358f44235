/**
 * The ledger's handle on the delivery function's process (delivery-process.ts): started on a fixed
 * port, killed with SIGKILL (no cleanup: leases stay taken, requests in flight are cut), started again
 * on the same port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./delivery-process.ts', import.meta.url));

export class DeliveryChild {
  private child: ChildProcess | undefined;
  private tail = '';
  starts = 0;
  kills = 0;

  readonly port: number;
  private readonly vars: Record<string, string>;

  constructor(port: number, vars: Record<string, string>) {
    this.port = port;
    this.vars = vars;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn(process.execPath, [SCRIPT], {
      env: { ...process.env, LEDGER_DELIVERY_PORT: String(this.port), LEDGER_DELIVERY_VARS: JSON.stringify(this.vars) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const keep = (d: Buffer) => {
      this.tail = (this.tail + d.toString()).slice(-4000);
    };
    child.stderr!.on('data', keep);
    await new Promise<void>((resolve, reject) => {
      let out = '';
      const fail = () => reject(new Error(`delivery process not ready in 30 s: ${out}${this.tail}`));
      const timer = setTimeout(fail, 30_000);
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('ready ')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`delivery process exited with ${code} before it was ready: ${this.tail}`));
      });
    });
    this.starts++;
  }

  /** SIGKILL, and wait until the process is gone (its port is free again). */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
    this.kills++;
  }

  /** Last lines the process wrote to stderr (for a failed run's report). */
  stderrTail(): string {
    return this.tail;
  }
}
