import type { ResealProgress } from '@platform/store';
import { Presets, SingleBar } from 'cli-progress';

/**
 * How `platform-server rotate-secrets` shows its progress on stderr: a bar on a terminal, a plain line per batch
 * otherwise (a log file, a CI job), so that what is left is visible either way.
 */
export const resealProgress = (stream: NodeJS.WriteStream = process.stderr) => {
  if (!stream.isTTY) {
    return ({ done, total }: ResealProgress) => {
      stream.write(`Re-sealed ${done}/${total} values (${Math.floor((done / Math.max(total, 1)) * 100)}%)\n`);
    };
  }
  let bar: SingleBar | undefined;
  return ({ done, total }: ResealProgress) => {
    if (!bar) {
      bar = new SingleBar(
        { stream, format: 'Re-sealing |{bar}| {percentage}% {value}/{total} values, {duration_formatted}' },
        Presets.shades_classic,
      );
      bar.start(total, done);
    }
    bar.setTotal(total);
    bar.update(done);
    if (done >= total) {
      bar.stop();
      bar = undefined;
    }
  };
};
