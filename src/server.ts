import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { importDemoData } from './modules/importer/demo-data.js';

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      // One line naming the setting, then stop: a misconfigured service must not half-start.
      process.stderr.write(`lawrisk: invalid setting: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

async function main(): Promise<void> {
  const config = readConfig();
  // Listens before the search index is loaded: /readyz and the search's 503 say so meanwhile.
  const { app, ctx } = await buildApp(config, { waitForSearchIndex: false });
  await importDemoData(ctx);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received: finishing in-flight requests`);
    // A stuck request must not keep the process alive forever.
    const timer = setTimeout(() => process.exit(1), 15_000);
    timer.unref();
    await app.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(`lawrisk serving ${config.apiRoot} on ${config.host}:${config.port} (${config.database.kind})`);
  await app.searchIndex.whenReady();
  app.log.info('lawrisk ready: search index loaded');
}

main().catch((err) => {
  process.stderr.write(`lawrisk: failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
