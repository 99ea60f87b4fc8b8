/**
 * Questions on the terminal (the captcha's answer, a password): the question on stderr, the answer
 * a line of stdin; a hidden one is read in raw mode without echo when stdin is a terminal. Piped
 * input gives one answer a line, in order.
 */
import { StringDecoder } from 'node:string_decoder';
import { CliError, EXIT } from './args.js';

export interface PromptInput {
  isTTY?: boolean;
  setRawMode?: (raw: boolean) => unknown;
  on(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  removeListener(event: string, listener: (...args: never[]) => void): unknown;
  resume(): unknown;
  pause(): unknown;
}

export class Prompter {
  private buffer = '';
  private ended = false;
  private cancelled = false;
  private raw = false;
  private attached = false;
  private wake: (() => void) | null = null;
  private readonly decoder = new StringDecoder('utf8');

  constructor(
    private readonly input: PromptInput,
    private readonly output: { write(text: string): unknown },
  ) {}

  private readonly onData = (chunk: Buffer | string) => {
    const text = typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    for (const ch of text) {
      if (this.raw) {
        if (ch === '\u0003') this.cancelled = true;
        else if (ch === '\u0004') this.ended = this.buffer === '' || this.buffer.endsWith('\n');
        else if (ch === '\u007f' || ch === '\b') {
          if (!this.buffer.endsWith('\n')) this.buffer = Array.from(this.buffer).slice(0, -1).join('');
        } else this.buffer += ch === '\r' ? '\n' : ch;
      } else this.buffer += ch;
    }
    this.notify();
  };

  private readonly onEnd = () => {
    this.ended = true;
    this.notify();
  };

  private notify() {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  /** The answer to `question` (without its line end), or null when the input ended first. */
  async ask(question: string, { hidden = false } = {}): Promise<string | null> {
    this.output.write(question);
    const rawMode = hidden && this.input.isTTY === true && typeof this.input.setRawMode === 'function';
    if (rawMode) {
      this.input.setRawMode!(true);
      this.raw = true;
    }
    if (!this.attached) {
      this.input.on('data', this.onData);
      this.input.on('end', this.onEnd);
      this.attached = true;
    }
    this.input.resume();
    try {
      for (;;) {
        if (this.cancelled) throw new CliError('Cancelled', EXIT.USAGE);
        const at = this.buffer.indexOf('\n');
        if (at >= 0) {
          const line = this.buffer.slice(0, at).replace(/\r$/, '');
          this.buffer = this.buffer.slice(at + 1);
          return line;
        }
        if (this.ended) {
          const rest = this.buffer;
          this.buffer = '';
          return rest === '' ? null : rest;
        }
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
    } finally {
      if (rawMode) {
        this.input.setRawMode!(false);
        this.raw = false;
      }
      // A terminal echoes the Enter of a visible answer; a hidden or piped one ends the line here.
      if (rawMode || this.input.isTTY !== true) this.output.write('\n');
      this.input.pause();
    }
  }

  /** Lets go of the input, so that the process can end. */
  close(): void {
    if (!this.attached) return;
    this.input.removeListener('data', this.onData);
    this.input.removeListener('end', this.onEnd);
    this.input.pause();
    this.attached = false;
  }
}
