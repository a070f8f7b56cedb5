// End-to-end tests against the real binary are added by later work (playwright-core, /usr/bin/chromium).
console.log('no e2e tests yet');
process.exit(0);
