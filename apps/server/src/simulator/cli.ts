import { parseSimArgs, USAGE, UsageError } from './args.ts';
import { runSimulator } from './simulator.ts';

// `npm run simulate -- --devices 3 --rate 0.5 [--mqtt mqtt://127.0.0.1:1883]` (see USAGE).
async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseSimArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`simulate: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.help) {
    console.log(USAGE);
    return 0;
  }
  let sim;
  try {
    sim = await runSimulator(parsed.options);
  } catch (error) {
    console.error(`simulate: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  let signals = 0;
  const onSignal = (name: string) => {
    // A second Ctrl-C does not wait for the devices to say goodbye.
    if (++signals > 1) process.exit(130);
    console.log(`\n${name}: stopping (again to quit at once)`);
    void sim.stop();
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  await sim.done;
  return 0;
}

// Exit explicitly: idle keep-alive sockets of fetch would otherwise hold the process open for a while.
main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
