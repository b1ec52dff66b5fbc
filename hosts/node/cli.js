#!/usr/bin/env node
// `qrglue`: QR codes from the command line, the Node twin of the Rust CLI
// (hosts/rust/cli/src/main.rs): same subcommands, flags, help shape, error
// lines and exit codes.
//
//   qrglue png TEXT [-o FILE] [--path component|raw|bindgen|native] [--ec-level L|M|Q|H] [--min-size N] [--quiet-zone N]
//              [--scale N] [--dark HEX] [--light HEX] [--micro] [--symbol-version N] [--min-version N] [--mask N] [--boost-ec] [--eci]
//   qrglue svg TEXT [same options] [--view-box-only] [--title TEXT] [--class NAMES]
//   qrglue text TEXT [--style half-blocks|half-blocks-inverted|ascii] [same options]
//   qrglue png --data-file PATH [same options]   (the payload's bytes from PATH, - for standard input)
//
// Output goes to FILE, or to standard output with `-o -` or no `-o`. A PNG is
// never written to a terminal unless asked for with `-o -`.
// Exit status: 0 written, 1 the generator refused the input (`qrglue: <kind>:
// <message>`), 2 bad command line, 3 the output could not be written or the
// path could not run (e.g. no native addon, a guest trap), or the payload
// could not be read.
import { createReadStream, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { QrError, DEFAULTS, MAX_TEXT_BYTES, TEXT_STYLES } from './lib/common.js';

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

/** --ec-level values, case-insensitive, as the Rust CLI takes them: a letter or the WIT name. */
const EC_ARGS = {
  l: 'low', m: 'medium', q: 'quartile', h: 'high',
  low: 'low', medium: 'medium', quartile: 'quartile', high: 'high',
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

const commandHelp = (command) => `${COMMANDS[command]}

${commandUsage(command)}

Arguments:
  <TEXT>  The text to encode (at most 7089 UTF-8 bytes)

Options:
      --data-file <PATH>         ${DATA_FILE_HELP}
  -o, --output <FILE>            Where to write; \`-\` is standard output
      --path <PATH>              Which implementation runs the generator (auto: native where installed, else component) [default: auto] [possible values: auto, component, raw, bindgen, native]
      --ec-level <EC_LEVEL>      Error-correction level: L (~7 %), M (~15 %), Q (~25 %), H (~30 %) [default: l] [possible values: l, m, q, h]
      --min-size <MIN_SIZE>      Minimum image width in pixels (1..=4096) [default: ${DEFAULTS.minSize}]
      --quiet-zone <QUIET_ZONE>  Margin in modules (0..=16) [default: ${DEFAULTS.quietZone}]
      --scale <SCALE>            Pixels per module (1..=20); sizes the image instead of --min-size
      --dark <HEX>               Colour of the dark modules: #rgb, #rgba, #rrggbb or #rrggbbaa [default: ${DEFAULTS.dark}]
      --light <HEX>              Colour of the light modules and the quiet zone (#ffffff00: transparent) [default: ${DEFAULTS.light}]
      --micro                    A Micro QR code (M1..M4) for a short text
      --symbol-version <N>       Exactly this QR version (1..=40, 1..=4 with --micro). Not --version, which prints this program's version
      --min-version <N>          At least this QR version (same bounds; not with --symbol-version: the generator says so, in the contract's words)
      --mask <N>                 This mask pattern (0..=7, 0..=3 with --micro) instead of the best
      --boost-ec                 Raise the EC level as far as the version still holds the text
      --eci                      Precede the data with ECI designator 26 (UTF-8), as segno's eci=True (not with --micro)
${command === 'text' ? STYLE_HELP : ''}${command === 'svg' ? SVG_HELP : ''}  -h, --help                     Print help
`;

// --data-file, as the Rust CLI words it.
const DATA_FILE_HELP = "Read the payload's bytes from PATH (- for standard input) instead of TEXT: any bytes, not only UTF-8 " +
  '(the *-bytes generators)';

// text's own flag, as the Rust CLI words it.
const STYLE_HELP = '      --style <STYLE>            How to draw the modules: half blocks with ink on the dark modules, ' +
  'half blocks with ink on the light ones, or "##" per dark module ' +
  `[default: ${DEFAULTS.style}] [possible values: ${TEXT_STYLES.join(', ')}]\n`;

// svg's own flags, as the Rust CLI words them.
const SVG_HELP = '      --view-box-only            Leave out width and height: only the viewBox stays, so the document scales ' +
  'to the box it is placed in\n' +
  '      --title <TEXT>             A <title>: the code\'s accessible name (at most 1024 UTF-8 bytes of text XML can carry), ' +
  'escaped\n' +
  '      --class <NAMES>            The <svg> element\'s class: CSS class names separated by single spaces\n';

/** A bad command line: the message, then the usage and where to look. */
class UsageError extends Error {
  constructor(message, usage = 'Usage: qrglue <COMMAND>') {
    super(message);
    this.usage = usage;
  }
}

const OPTIONS = {
  'data-file': { type: 'string' },
  output: { type: 'string', short: 'o' },
  path: { type: 'string' },
  'ec-level': { type: 'string' },
  'min-size': { type: 'string' },
  'quiet-zone': { type: 'string' },
  scale: { type: 'string' },
  dark: { type: 'string' },
  light: { type: 'string' },
  // The symbol options: --symbol-version, as --version prints this program's version.
  micro: { type: 'boolean' },
  'symbol-version': { type: 'string' },
  'min-version': { type: 'string' },
  mask: { type: 'string' },
  'boost-ec': { type: 'boolean' },
  eci: { type: 'boolean' },
  style: { type: 'string' }, // text only
  'view-box-only': { type: 'boolean' }, // svg only
  title: { type: 'string' }, // svg only
  class: { type: 'string' }, // svg only
  help: { type: 'boolean', short: 'h' },
};

const VALUE_NAMES = {
  'data-file': '--data-file <PATH>',
  output: '-o, --output <FILE>',
  path: '--path <PATH>',
  'ec-level': '--ec-level <EC_LEVEL>',
  'min-size': '--min-size <MIN_SIZE>',
  'quiet-zone': '--quiet-zone <QUIET_ZONE>',
  scale: '--scale <SCALE>',
  dark: '--dark <HEX>',
  light: '--light <HEX>',
  micro: '--micro',
  'symbol-version': '--symbol-version <N>',
  'min-version': '--min-version <N>',
  mask: '--mask <N>',
  'boost-ec': '--boost-ec',
  eci: '--eci',
  style: '--style <STYLE>',
  'view-box-only': '--view-box-only',
  title: '--title <TEXT>',
  class: '--class <NAMES>',
};

/** The flags only one subcommand takes. */
const COMMAND_ONLY = { style: 'text', 'view-box-only': 'svg', title: 'svg', class: 'svg' };

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
  const ecArg = values['ec-level'];
  if (ecArg !== undefined && !Object.hasOwn(EC_ARGS, ecArg.toLowerCase())) {
    throw new UsageError(`invalid value '${ecArg}' for '--ec-level <EC_LEVEL>' [possible values: l, m, q, h]`, usage);
  }
  const ecLevel = ecArg === undefined ? DEFAULTS.ecLevel : EC_ARGS[ecArg.toLowerCase()];
  const minSize = values['min-size'] === undefined ? DEFAULTS.minSize : u32('min-size', values['min-size'], usage);
  const quietZone = values['quiet-zone'] === undefined ? DEFAULTS.quietZone : u32('quiet-zone', values['quiet-zone'], usage);
  const scale = values.scale === undefined ? undefined : u32('scale', values.scale, usage);
  // The colours go to the generator as given: a bad one is its invalid-options
  // (exit 1), reported in the contract's order, as the Rust CLI does.
  const options = { ecLevel, minSize, quietZone, scale, dark: values.dark ?? DEFAULTS.dark, light: values.light ?? DEFAULTS.light };
  // The symbol options as u32s and flags; their ranges (and --symbol-version with
  // --min-version) are the generator's to refuse, in the contract's order.
  for (const [flag, key] of [['symbol-version', 'version'], ['min-version', 'minVersion'], ['mask', 'mask']]) {
    if (values[flag] !== undefined) options[key] = u32(flag, values[flag], usage);
  }
  if (values.micro) options.micro = true;
  if (values['boost-ec']) options.boostEc = true;
  if (values.eci) options.eci = true;
  if (command === 'text') {
    const style = values.style ?? DEFAULTS.style;
    if (!TEXT_STYLES.includes(style)) {
      throw new UsageError(`invalid value '${style}' for '--style <STYLE>' [possible values: ${TEXT_STYLES.join(', ')}]`, usage);
    }
    options.style = style;
  }
  if (command === 'svg') {
    // As given: a bad title or class is the generator's invalid-options (exit 1), in the contract's order.
    if (values['view-box-only']) options.viewBoxOnly = true;
    if (values.title !== undefined) options.title = values.title;
    if (values.class !== undefined) options.class = values.class;
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
