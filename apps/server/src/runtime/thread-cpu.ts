/**
 * The CPU time one thread has run, from Linux's /proc (`schedstat`: nanoseconds spent on a core). A sandbox run long
 * on the wall clock that used little CPU spent that time waiting for a core other processes kept busy: it does not
 * hold its thread as a looping connector does (worker-handle.ts `held`). Where /proc is missing nothing is known, and
 * the wall clock decides alone.
 *
 * Each reading opens, reads and closes the file (about 15 µs): an fd kept open by a worker thread belongs to the
 * process and would outlive the worker.
 */
import { closeSync, openSync, readlinkSync, readSync } from 'node:fs';

const buffer = Buffer.alloc(64);

/** CPU milliseconds of the thread whose /proc directory is `dir`, or undefined when it cannot be read. */
const cpuMsAt = (dir: string): number | undefined => {
  let fd: number | undefined;
  try {
    fd = openSync(`${dir}/schedstat`, 'r');
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    const ns = Number.parseInt(buffer.toString('latin1', 0, read), 10);
    return Number.isFinite(ns) ? ns / 1e6 : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
};

/** The calling thread's id in /proc, or 0 where there is none. */
export const ownThreadId = (): number => {
  try {
    return Number.parseInt(readlinkSync('/proc/thread-self').split('/').at(-1) ?? '', 10) || 0;
  } catch {
    return 0;
  }
};

/** CPU milliseconds the calling thread has run. */
export const ownCpuMs = (): number | undefined => cpuMsAt('/proc/thread-self');

/** CPU milliseconds thread `id` of this process has run (`ownThreadId` of that thread). */
export const threadCpuMs = (id: number): number | undefined =>
  id === 0 ? undefined : cpuMsAt(`/proc/self/task/${id}`);
