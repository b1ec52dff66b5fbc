#!/usr/bin/env node
// `qrglue`: QR codes from the command line, the Node twin of the Rust CLI
// (hosts/rust/cli/src/main.rs): same subcommands, flags, help shape, error
// lines and exit codes.
//
//   qrglue png TEXT [-o FILE] [--path auto|component|raw|bindgen|native] [--ec-level low|medium|quartile|high]
//              [--min-size N] [--quiet-zone N] [--scale N] [--dark HEX] [--light HEX] [symbol options: qrglue png -h]
//   qrglue svg TEXT [same options] [--view-box-only] [--title TEXT] [--class NAMES]
//   qrglue text TEXT [--style half-blocks|half-blocks-inverted|ascii] [same options]
//   qrglue png --data-file PATH [same options]   (the payload's bytes from PATH, - for standard input)
//
// The option flags are lib/cli-flags.js's, generated from the contract's
// option table (tools/contract), with their help lines; --ec-level takes the
// WIT names, as the library does.
//
// Output goes to FILE, or to standard output with `-o -` or no `-o`. A PNG is
// never written to a terminal unless asked for with `-o -`.
// Exit status: 0 written, 1 the generator refused the input (`qrglue: <kind>:
// <message>`), 2 bad command line, 3 the output could not be written or the
// path could not run (e.g. no native addon, a guest trap), or the payload
// could not be read.
import { createReadStream, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { QrError, EC_LEVELS, MAX_TEXT_BYTES, TEXT_STYLES } from './lib/common.js';
import { CLI_FLAGS } from './lib/cli-flags.js';

const EXIT_QR_ERROR = 1;
const EXIT_USAGE = 2;
const EXIT_FAILURE = 3;

/**
 * Each --path value and the entry point it loads (loaded on demand: native needs a built addon).
 * auto, the default, is qrglue/auto: the native addon where one is installed, else the component.
 */
const PATHS = {
  auto: './auto.js',
  component: './index.js',
  raw: './raw.js',
  bindgen: './bindgen.js',
  native: './native.js',
};

const ABOUT = 'QR codes as PNG or SVG, through wasm (component, raw ABI or wasm-bindgen) or natively';

const COMMANDS = {
  png: 'Write the code as a 1-bit grayscale PNG',
  svg: 'Write the code as an SVG document',
  text: 'Write the code as text for a terminal or a file (half blocks by default; on a dark terminal use --style half-blocks-inverted)',
};

const MAIN_HELP = `${ABOUT}

Usage: qrglue <COMMAND>

Commands:
  png   ${COMMANDS.png}
  svg   ${COMMANDS.svg}
  text  ${COMMANDS.text}
  help  Print this message or the help of the given subcommand(s)

Options:
  -h, --help     Print help
  -V, --version  Print version
`;

const commandUsage = (command) => `Usage: qrglue ${command} [OPTIONS] <TEXT>`;

// The flags every subcommand takes before the options', as the Rust CLI words them.
const COMMON_FLAGS = [
  ['--data-file <PATH>', "Read the payload's bytes from PATH (- for standard input) instead of TEXT: any bytes, " +
    'not only UTF-8 (the *-bytes generators)'],
  ['-o, --output <FILE>', 'Where to write; `-` is standard output'],
  ['--path <PATH>', 'Which implementation runs the generator (auto: native where installed, else component) ' +
    '[default: auto] [possible values: auto, component, raw, bindgen, native]'],
];

/** A flag as the help and the errors name it: `--min-size <MIN_SIZE>`, `--micro`. */
const flagName = ({ flag, value }) => (value === null ? `--${flag}` : `--${flag} <${value}>`);

const commandHelp = (command) => {
  const lines = [...COMMON_FLAGS,
    ...CLI_FLAGS.filter((f) => f.command === null || f.command === command).map((f) => [flagName(f), f.help])];
  // Aligned as clap aligns them: two spaces past the longest flag.
  const width = Math.max(...lines.map(([name]) => name.length)) + 2;
  // `-o, --output` starts four columns left of the long-only flags, as clap prints it.
  const pad = (name) => (name.startsWith('-o') ? `  ${name.padEnd(width + 4)}` : `      ${name.padEnd(width)}`);
  return `${COMMANDS[command]}

${commandUsage(command)}

Arguments:
  <TEXT>  The text to encode (at most 7089 UTF-8 bytes)

Options:
${lines.map(([name, help]) => `${pad(name)}${help}\n`).join('')}  -h, --help${' '.repeat(width - 6)}Print help
`;
};

/** A bad command line: the message, then the usage and where to look. */
class UsageError extends Error {
  constructor(message, usage = 'Usage: qrglue <COMMAND>') {
    super(message);
    this.usage = usage;
  }
}

// parseArgs's table: the common flags, then the contract's (lib/cli-flags.js).
const OPTIONS = {
  'data-file': { type: 'string' },
  output: { type: 'string', short: 'o' },
  path: { type: 'string' },
  ...Object.fromEntries(CLI_FLAGS.map((f) => [f.flag, { type: f.type === 'bool' ? 'boolean' : 'string' }])),
  help: { type: 'boolean', short: 'h' },
};

const VALUE_NAMES = {
  'data-file': '--data-file <PATH>',
  output: '-o, --output <FILE>',
  path: '--path <PATH>',
  ...Object.fromEntries(CLI_FLAGS.map((f) => [f.flag, flagName(f)])),
};

/** The flags only one subcommand takes. */
const COMMAND_ONLY = Object.fromEntries(CLI_FLAGS.filter((f) => f.command !== null).map((f) => [f.flag, f.command]));

/** A u32 option value, as the Rust CLI parses it; anything else is a usage error. */
function u32(name, value, usage) {
  if (!/^\+?[0-9]+$/.test(value) || Number(value) > 0xffff_ffff) {
    throw new UsageError(`invalid value '${value}' for '${VALUE_NAMES[name]}': not an integer within 0..=4294967295`, usage);
  }
  return Number(value);
}

/** The command line of a subcommand -> the request; throws UsageError. */
function parseRequest(command, args) {
  const usage = commandUsage(command);
  // Not strict: every token comes back, so each mistake gets the Rust CLI's wording.
  const { values, positionals, tokens } = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: false, tokens: true });
  const seen = new Set();
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    if (!Object.hasOwn(OPTIONS, token.name) || (Object.hasOwn(COMMAND_ONLY, token.name) && COMMAND_ONLY[token.name] !== command)) {
      throw new UsageError(`unexpected argument '${token.rawName}' found`, usage);
    }
    if (token.name === 'help') return { help: command };
    if (OPTIONS[token.name].type === 'boolean') {
      // A flag takes no value: `--micro=yes` is refused as clap refuses it.
      if (token.value !== undefined) {
        throw new UsageError(`unexpected value '${token.value}' for '${VALUE_NAMES[token.name]}' found; no more were expected`, usage);
      }
    } else if (token.value === undefined) {
      throw new UsageError(`a value is required for '${VALUE_NAMES[token.name]}' but none was supplied`, usage);
    }
    if (seen.has(token.name)) {
      throw new UsageError(`the argument '${VALUE_NAMES[token.name]}' cannot be used multiple times`, usage);
    }
    seen.add(token.name);
  }
  const dataFile = values['data-file'];
  if (dataFile !== undefined && positionals.length > 0) {
    throw new UsageError("the argument '--data-file <PATH>' cannot be used with '<TEXT>'", usage);
  }
  if (dataFile === undefined && positionals.length === 0) {
    throw new UsageError('the following required arguments were not provided: <TEXT>', usage);
  }
  if (positionals.length > 1) {
    throw new UsageError(`unexpected argument '${positionals[1]}' found`, usage);
  }
  const path = values.path ?? 'auto';
  if (!Object.hasOwn(PATHS, path)) {
    throw new UsageError(`invalid value '${path}' for '--path <PATH>' [possible values: ${Object.keys(PATHS).join(', ')}]`, usage);
  }
  // Each option of the contract's table this subcommand takes, by its type. The
  // generator checks every value it is given, in the contract's order (a bad colour,
  // a --min-size out of range: exit 1); the command line only has to be read.
  const options = {};
  for (const f of CLI_FLAGS) {
    if (f.command !== null && f.command !== command) continue;
    const value = values[f.flag];
    if (value === undefined || value === false) continue;
    switch (f.type) {
      case 'bool':
        options[f.name] = true;
        break;
      case 'u32':
      case 'option-u32':
        options[f.name] = u32(f.flag, value, usage);
        break;
      case 'ec-level':
      case 'text-style': {
        const names = f.type === 'ec-level' ? EC_LEVELS : TEXT_STYLES;
        if (!names.includes(value)) {
          throw new UsageError(`invalid value '${value}' for '${flagName(f)}' [possible values: ${names.join(', ')}]`, usage);
        }
        options[f.name] = value;
        break;
      }
      default: // colours and strings, as given
        options[f.name] = value;
    }
  }
  return { command, text: positionals[0], dataFile, output: values.output, path, options };
}

/** argv (after `qrglue`) -> what to do; throws UsageError. */
function parseCommandLine(argv) {
  const [first, ...rest] = argv;
  if (first === undefined) throw new UsageError('a subcommand is required (png, svg or text)');
  if (first === '-h' || first === '--help') return { print: MAIN_HELP };
  if (first === '-V' || first === '--version') {
    const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
    return { print: `qrglue ${version}\n` };
  }
  if (first === 'help') {
    if (rest.length === 0) return { print: MAIN_HELP };
    if (rest.length === 1 && Object.hasOwn(COMMANDS, rest[0])) return { print: commandHelp(rest[0]) };
    throw new UsageError(`unrecognized subcommand '${rest.join(' ')}'`);
  }
  if (!Object.hasOwn(COMMANDS, first)) {
    throw new UsageError(first.startsWith('-') ? `unexpected argument '${first}' found` : `unrecognized subcommand '${first}'`);
  }
  const request = parseRequest(first, rest);
  return request.help ? { print: commandHelp(request.help) } : request;
}

/**
 * The payload of --data-file PATH (`-`: standard input), as a Buffer (a
 * Uint8Array, the package's bytes type): at most one byte more than any
 * payload may have, so a longer input is refused by its length
 * (data-too-long) without being read whole, as the Rust CLI does.
 */
async function readPayload(path) {
  const stream = path === '-' ? process.stdin : createReadStream(path);
  const chunks = [];
  let length = 0;
  for await (const chunk of stream) {
    chunks.push(chunk);
    length += chunk.length;
    if (length > MAX_TEXT_BYTES) break; // leaving the loop closes the stream
  }
  return Buffer.concat(chunks).subarray(0, MAX_TEXT_BYTES + 1);
}

/** Writes the bytes to standard output; resolves to an exit code. */
function writeStdout(bytes) {
  return new Promise((resolve) => {
    process.stdout.once('error', (error) => {
      console.error(`qrglue: cannot write standard output: ${error.message}`);
      resolve(EXIT_FAILURE);
    });
    process.stdout.write(bytes, (error) => resolve(error ? EXIT_FAILURE : 0));
  });
}

async function main(argv) {
  let request;
  try {
    request = parseCommandLine(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`qrglue: ${error.message}\n\n${error.usage}\n\nFor more information, try '--help'.`);
    return EXIT_USAGE;
  }
  if (request.print !== undefined) {
    process.stdout.write(request.print);
    return 0;
  }

  const isPng = request.command === 'png';
  const toStdout = request.output === undefined || request.output === '-';
  // Binary on a terminal garbles it; `-o -` says the caller means it.
  if (isPng && request.output === undefined && process.stdout.isTTY) {
    console.error('qrglue: refusing to write a PNG to a terminal; use -o FILE, or -o - to force it');
    return EXIT_USAGE;
  }

  // The input: the TEXT argument, or the bytes of --data-file (the *-bytes
  // generators: any bytes, never decoded).
  let input = request.text;
  if (request.dataFile !== undefined) {
    try {
      input = await readPayload(request.dataFile);
    } catch (error) {
      const from = request.dataFile === '-' ? 'standard input' : request.dataFile;
      console.error(`qrglue: cannot read the payload from ${from}: ${error.message}`);
      return EXIT_FAILURE;
    }
  }

  let bytes;
  try {
    const api = await import(PATHS[request.path]);
    bytes = isPng ? api.png(input, request.options) : Buffer.from(api[request.command](input, request.options), 'utf8');
  } catch (error) {
    if (error instanceof QrError) {
      console.error(`qrglue: ${error.kind}: ${error.message}`);
      return EXIT_QR_ERROR;
    }
    console.error(`qrglue: ${error?.message ?? error}`);
    return EXIT_FAILURE;
  }

  if (toStdout) return writeStdout(bytes);
  try {
    writeFileSync(request.output, bytes);
  } catch (error) {
    console.error(`qrglue: cannot write ${request.output}: ${error.message}`);
    return EXIT_FAILURE;
  }
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
