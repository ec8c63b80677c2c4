import net from 'node:net';

export const TEST_MQTT_URL = process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';
/** In CI (or with REQUIRE_MQTT=1) a missing broker fails the run instead of skipping. */
const required = process.env.CI === 'true' || process.env.REQUIRE_MQTT === '1';

function brokerProblem(): Promise<string | null> {
  const url = new URL(TEST_MQTT_URL);
  return new Promise((resolve) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port || 1883), timeout: 3000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(null);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve('timed out');
    });
    socket.once('error', (error) => resolve(error.message));
  });
}

const problem = await brokerProblem();
if (problem && required)
  throw new Error(`The MQTT broker is required here (CI or REQUIRE_MQTT=1) but ${TEST_MQTT_URL} is not reachable: ${problem}`);
if (problem) {
  console.warn(
    `\n*** SKIPPING the MQTT suite: ${TEST_MQTT_URL} is not reachable (${problem}).` +
      `\n*** Start Mosquitto or set TEST_MQTT_URL; CI fails instead of skipping.\n`,
  );
}

export const mqttAvailable = problem === null;
